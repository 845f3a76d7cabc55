package dev.redisbatch;

import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * {@link BatchOptions}: what the builder accepts and refuses, and how per-call options
 * are merged with a template's defaults. No server.
 */
class BatchOptionsTests {

	/**
	 * Complete defaults, as a template holds them after merging its own with the built-in
	 * ones.
	 */
	private static final BatchOptions TEMPLATE_DEFAULTS = BatchOptions.builder()
		.chunkSize(1000)
		.timeout(Duration.ofSeconds(10))
		.transactional(false)
		.name("default")
		.maxChunkBytes(8L * 1024 * 1024)
		.retry(3, Duration.ofMillis(200))
		.maxCommandsPerSecond(0)
		.maxBytesPerSecond(0)
		.build();

	/**
	 * Options with every value set, each different from {@link #TEMPLATE_DEFAULTS}.
	 */
	private static final BatchOptions EVERYTHING_SET = BatchOptions.builder()
		.chunkSize(50)
		.maxInFlightCommands(200)
		.timeout(Duration.ofMillis(750))
		.transactional(true)
		.name("import.users")
		.maxChunkBytes(4096)
		.retry(1, Duration.ofMillis(5))
		.maxCommandsPerSecond(5_000)
		.maxBytesPerSecond(1024 * 1024)
		.build();

	@ParameterizedTest
	@ValueSource(ints = { 1, 2, 500, 1_000_000 })
	void acceptsAChunkSizeFromOneToAMillion(int chunkSize) {
		assertThat(BatchOptions.builder().chunkSize(chunkSize).build().chunkSize()).isEqualTo(chunkSize);
	}

	@ParameterizedTest
	@ValueSource(ints = { 0, -1, 1_000_001, Integer.MIN_VALUE, Integer.MAX_VALUE })
	void refusesAChunkSizeOutsideOneToAMillion(int chunkSize) {
		assertThatIllegalArgumentException().isThrownBy(() -> BatchOptions.builder().chunkSize(chunkSize))
			.withMessage("chunkSize must be between 1 and 1000000 but was " + chunkSize);
	}

	@ParameterizedTest
	@ValueSource(ints = { 1, 2, 10_000_000 })
	void acceptsAWindowOfOneToTenMillionCommands(int commands) {
		assertThat(BatchOptions.builder().maxInFlightCommands(commands).build().maxInFlightCommands())
			.isEqualTo(commands);
	}

	@ParameterizedTest
	@ValueSource(ints = { 0, -1, 10_000_001, Integer.MAX_VALUE })
	void refusesAWindowOutsideOneToTenMillionCommands(int commands) {
		assertThatIllegalArgumentException().isThrownBy(() -> BatchOptions.builder().maxInFlightCommands(commands))
			.withMessage("maxInFlightCommands must be between 1 and 10000000 but was " + commands);
	}

	@Test
	void acceptsTheShortestPositiveTimeout() {
		assertThat(BatchOptions.builder().timeout(Duration.ofNanos(1)).build().timeout())
			.isEqualTo(Duration.ofNanos(1));
	}

	@Test
	void refusesAZeroTimeout() {
		assertThatIllegalArgumentException().isThrownBy(() -> BatchOptions.builder().timeout(Duration.ZERO))
			.withMessage("timeout must be positive but was PT0S");
	}

	@Test
	void refusesANegativeTimeout() {
		assertThatIllegalArgumentException().isThrownBy(() -> BatchOptions.builder().timeout(Duration.ofMillis(-1)))
			.withMessage("timeout must be positive but was PT-0.001S");
	}

	@Test
	void refusesANullTimeout() {
		assertThatIllegalArgumentException().isThrownBy(() -> BatchOptions.builder().timeout(null))
			.withMessage("timeout must not be null");
	}

	@ParameterizedTest
	@ValueSource(strings = { "a", "Z", "7", "import", "import.users_v2-x", "a-", "a.",
			"a123456789012345678901234567890123456789012345678901234567890123" })
	void acceptsANameOfOneToSixtyFourLettersDigitsDotsUnderscoresAndDashesStartingWithALetterOrDigit(String name) {
		assertThat(BatchOptions.builder().name(name).build().name()).isEqualTo(name);
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "-import", ".import", "_import", "with space", "a/b", "a:b", "user{1}", "naïve",
			"a1234567890123456789012345678901234567890123456789012345678901234", " import", "import\n" })
	void refusesANameThatIsNotAMetricsTag(String name) {
		assertThatIllegalArgumentException().isThrownBy(() -> BatchOptions.builder().name(name))
			.withMessage("name must be 1 to 64 characters of letters, digits, '.', '_' or '-' (it is a metrics tag)"
					+ " but was '" + name + "'");
	}

	@Test
	void refusesANullName() {
		assertThatIllegalArgumentException().isThrownBy(() -> BatchOptions.builder().name(null))
			.withMessage("name must not be null");
	}

	@ParameterizedTest
	@ValueSource(longs = { 1024, 1025, 8L * 1024 * 1024, Long.MAX_VALUE })
	void acceptsAChunkByteBudgetOfAtLeastOneKibibyte(long maxChunkBytes) {
		assertThat(BatchOptions.builder().maxChunkBytes(maxChunkBytes).build().maxChunkBytes())
			.isEqualTo(maxChunkBytes);
	}

	@ParameterizedTest
	@ValueSource(longs = { 1023, 0, -1, Long.MIN_VALUE })
	void refusesAChunkByteBudgetUnderOneKibibyte(long maxChunkBytes) {
		assertThatIllegalArgumentException().isThrownBy(() -> BatchOptions.builder().maxChunkBytes(maxChunkBytes))
			.withMessage("maxChunkBytes must be at least 1024 bytes but was " + maxChunkBytes);
	}

	@ParameterizedTest
	@ValueSource(ints = { 0, 1, 10 })
	void acceptsRetryAttemptsFromZeroToTen(int attempts) {
		BatchOptions options = BatchOptions.builder().retry(attempts, Duration.ofMillis(20)).build();

		assertThat(options.retryAttempts()).isEqualTo(attempts);
		assertThat(options.retryBackoff()).isEqualTo(Duration.ofMillis(20));
	}

	@ParameterizedTest
	@ValueSource(ints = { -1, 11, Integer.MIN_VALUE, Integer.MAX_VALUE })
	void refusesRetryAttemptsOutsideZeroToTen(int attempts) {
		assertThatIllegalArgumentException().isThrownBy(() -> BatchOptions.builder().retry(attempts, Duration.ZERO))
			.withMessage("retry attempts must be between 0 and 10 but was " + attempts);
	}

	@ParameterizedTest
	@ValueSource(longs = { 0, 1, 50_000, Long.MAX_VALUE })
	void acceptsARateCapOfZeroForNoneOrAnyPositiveRate(long perSecond) {
		BatchOptions options = BatchOptions.builder()
			.maxCommandsPerSecond(perSecond)
			.maxBytesPerSecond(perSecond)
			.build();

		assertThat(options.maxCommandsPerSecond()).isEqualTo(perSecond);
		assertThat(options.maxBytesPerSecond()).isEqualTo(perSecond);
	}

	@ParameterizedTest
	@ValueSource(longs = { -1, Long.MIN_VALUE })
	void refusesANegativeRateCap(long perSecond) {
		assertThatIllegalArgumentException().isThrownBy(() -> BatchOptions.builder().maxCommandsPerSecond(perSecond))
			.withMessage("maxCommandsPerSecond must be 0 (no cap) or positive but was " + perSecond);
		assertThatIllegalArgumentException().isThrownBy(() -> BatchOptions.builder().maxBytesPerSecond(perSecond))
			.withMessage("maxBytesPerSecond must be 0 (no cap) or positive but was " + perSecond);
	}

	@Test
	void acceptsARetryWithoutBackoff() {
		assertThat(BatchOptions.builder().retry(2, Duration.ZERO).build().retryBackoff()).isEqualTo(Duration.ZERO);
	}

	@Test
	void refusesANegativeRetryBackoff() {
		assertThatIllegalArgumentException().isThrownBy(() -> BatchOptions.builder().retry(2, Duration.ofNanos(-1)))
			.withMessage("retry backoff must not be negative");
	}

	@Test
	void refusesANullRetryBackoff() {
		assertThatIllegalArgumentException().isThrownBy(() -> BatchOptions.builder().retry(2, null))
			.withMessage("retry backoff must not be negative");
	}

	@Test
	void keepsTheLastAcceptedValueWhenALaterOneIsRefused() {
		BatchOptions.Builder builder = BatchOptions.builder().chunkSize(5).retry(2, Duration.ofMillis(10));

		assertThatIllegalArgumentException().isThrownBy(() -> builder.chunkSize(0));
		assertThatIllegalArgumentException().isThrownBy(() -> builder.retry(2, Duration.ofMillis(-10)));

		BatchOptions options = builder.build();
		assertThat(options.chunkSize()).isEqualTo(5);
		assertThat(options.retryBackoff()).isEqualTo(Duration.ofMillis(10));
	}

	@Test
	void leavesEveryValueUnsetByDefault() {
		BatchOptions options = BatchOptions.defaults();

		assertThat(options.chunkSize()).isNull();
		assertThat(options.maxInFlightBytes()).isNull();
		assertThat(options.maxInFlightCommands()).isNull();
		assertThat(options.timeout()).isNull();
		assertThat(options.transactional()).isNull();
		assertThat(options.name()).isNull();
		assertThat(options.maxChunkBytes()).isNull();
		assertThat(options.retryAttempts()).isNull();
		assertThat(options.retryBackoff()).isNull();
		assertThat(options.maxCommandsPerSecond()).isNull();
		assertThat(options.maxBytesPerSecond()).isNull();
	}

	@Test
	void buildsTheSameOptionsAsDefaultsWhenNothingIsSet() {
		assertThat(BatchOptions.builder().build()).isEqualTo(BatchOptions.defaults());
	}

	@Test
	void takesEveryUnsetValueFromTheDefaults() {
		assertThat(BatchOptions.defaults().withDefaults(TEMPLATE_DEFAULTS)).isEqualTo(TEMPLATE_DEFAULTS);
	}

	@Test
	void keepsEverySetValueOverTheDefaults() {
		assertThat(EVERYTHING_SET.withDefaults(TEMPLATE_DEFAULTS)).isEqualTo(EVERYTHING_SET);
	}

	@Test
	void mergesSetValuesWithDefaultsForTheRest() {
		BatchOptions options = BatchOptions.builder().chunkSize(7).name("orders").build();

		BatchOptions merged = options.withDefaults(TEMPLATE_DEFAULTS);

		assertThat(merged).isEqualTo(TEMPLATE_DEFAULTS.mutate().chunkSize(7).name("orders").build());
	}

	@Test
	void keepsAFalseTransactionalOverATrueDefault() {
		BatchOptions defaults = TEMPLATE_DEFAULTS.mutate().transactional(true).build();

		assertThat(BatchOptions.builder().transactional(false).build().withDefaults(defaults).transactional())
			.isFalse();
	}

	@Test
	void takesTheDefaultRetryAttemptsAndBackoffWhenTheOptionsSetNoRetry() {
		BatchOptions merged = BatchOptions.builder().chunkSize(10).build().withDefaults(TEMPLATE_DEFAULTS);

		assertThat(merged.retryAttempts()).isEqualTo(3);
		assertThat(merged.retryBackoff()).isEqualTo(Duration.ofMillis(200));
	}

	@Test
	void turnsADefaultRetryOffWithZeroAttempts() {
		BatchOptions merged = BatchOptions.builder().retry(0, Duration.ZERO).build().withDefaults(TEMPLATE_DEFAULTS);

		assertThat(merged.retryAttempts()).isZero();
		assertThat(merged.retryBackoff()).isEqualTo(Duration.ZERO);
	}

	@Test
	void takesTheRetryAttemptsAndBackoffTogetherFromTheOptionsThatSetThem() {
		BatchOptions merged = BatchOptions.builder().retry(5, Duration.ZERO).build().withDefaults(TEMPLATE_DEFAULTS);

		assertThat(merged.retryAttempts()).isEqualTo(5);
		assertThat(merged.retryBackoff()).isEqualTo(Duration.ZERO);
	}

	@Test
	void carriesATemplateRetryThroughTheBuiltInDefaultsToACallThatSetsNothing() {
		BatchOptions builtIn = TEMPLATE_DEFAULTS.mutate().retry(0, Duration.ZERO).build();
		BatchOptions template = BatchOptions.builder().retry(2, Duration.ofMillis(300)).build().withDefaults(builtIn);

		BatchOptions call = BatchOptions.defaults().withDefaults(template);

		assertThat(call.retryAttempts()).isEqualTo(2);
		assertThat(call.retryBackoff()).isEqualTo(Duration.ofMillis(300));
	}

	@Test
	void resolvesIntoTheSettingsOfOneBatchInOneCall() {
		BatchOptions complete = TEMPLATE_DEFAULTS.mutate().maxInFlightBytes(4096).maxInFlightCommands(500).build();

		RunSettings settings = BatchOptions.builder().chunkSize(7).name("orders").build().resolve(complete);

		assertThat(settings.chunkSize()).isEqualTo(7);
		assertThat(settings.name()).isEqualTo("orders");
		assertThat(settings.timeout()).isEqualTo(Duration.ofSeconds(10));
		assertThat(settings.maxInFlightBytes()).isEqualTo(4096);
		assertThat(settings.maxInFlightCommands()).isEqualTo(500);
		assertThat(settings.retryAttempts()).isEqualTo(3);
		assertThat(settings.options()).isEqualTo(complete.mutate().chunkSize(7).name("orders").build());
	}

	@Test
	void refusesToResolveAgainstDefaultsThatLeaveAValueUnset() {
		assertThatIllegalStateException()
			.isThrownBy(() -> BatchOptions.builder().chunkSize(7).build().resolve(TEMPLATE_DEFAULTS))
			.withMessageContaining("maxInFlightBytes");
	}

	@Test
	void leavesTheOptionsItMergesUnchanged() {
		BatchOptions options = BatchOptions.builder().chunkSize(7).build();

		options.withDefaults(TEMPLATE_DEFAULTS);

		assertThat(options).isEqualTo(BatchOptions.builder().chunkSize(7).build());
	}

	@Test
	void copiesEveryValueIntoAMutatedBuilder() {
		assertThat(EVERYTHING_SET.mutate().build()).isEqualTo(EVERYTHING_SET);
	}

	@Test
	void copiesUnsetValuesAsUnset() {
		assertThat(BatchOptions.builder().chunkSize(9).build().mutate().build())
			.isEqualTo(BatchOptions.builder().chunkSize(9).build());
	}

	@Test
	void changesOnlyWhatIsSetOnAMutatedBuilder() {
		BatchOptions changed = EVERYTHING_SET.mutate().maxInFlightCommands(800).build();

		assertThat(changed.maxInFlightCommands()).isEqualTo(800);
		assertThat(changed.mutate().maxInFlightCommands(200).build()).isEqualTo(EVERYTHING_SET);
	}

	@Test
	void leavesTheOriginalUnchangedWhenAMutatedBuilderChanges() {
		EVERYTHING_SET.mutate().chunkSize(999).retry(0, Duration.ZERO).build();

		assertThat(EVERYTHING_SET.chunkSize()).isEqualTo(50);
		assertThat(EVERYTHING_SET.retryAttempts()).isEqualTo(1);
	}

	@Test
	void equalsOptionsWithTheSameValues() {
		BatchOptions same = BatchOptions.builder()
			.chunkSize(50)
			.maxInFlightCommands(200)
			.timeout(Duration.ofMillis(750))
			.transactional(true)
			.name("import.users")
			.maxChunkBytes(4096)
			.retry(1, Duration.ofMillis(5))
			.maxCommandsPerSecond(5_000)
			.maxBytesPerSecond(1024 * 1024)
			.build();

		assertThat(same).isEqualTo(EVERYTHING_SET).hasSameHashCodeAs(EVERYTHING_SET);
	}

	@Test
	void differsWhenAnyOneValueDiffers() {
		List<UnaryOperator<BatchOptions.Builder>> changes = List.of((builder) -> builder.chunkSize(51),
				(builder) -> builder.maxInFlightCommands(201), (builder) -> builder.timeout(Duration.ofMillis(751)),
				(builder) -> builder.transactional(false), (builder) -> builder.name("import.orders"),
				(builder) -> builder.maxChunkBytes(4097), (builder) -> builder.retry(2, Duration.ofMillis(5)),
				(builder) -> builder.retry(1, Duration.ofMillis(6)), (builder) -> builder.maxCommandsPerSecond(5_001),
				(builder) -> builder.maxBytesPerSecond(1024 * 1024 + 1));

		for (UnaryOperator<BatchOptions.Builder> change : changes) {
			BatchOptions changed = change.apply(EVERYTHING_SET.mutate()).build();
			assertThat(changed).as(changed.toString()).isNotEqualTo(EVERYTHING_SET);
			assertThat(EVERYTHING_SET).as(changed.toString()).isNotEqualTo(changed);
		}
	}

	@Test
	void differsWhenAValueIsSetOnOnlyOneSide() {
		BatchOptions set = BatchOptions.builder().transactional(false).build();

		assertThat(set).isNotEqualTo(BatchOptions.defaults());
		assertThat(BatchOptions.defaults()).isNotEqualTo(set);
	}

	@Test
	void equalsItself() {
		assertThat(EVERYTHING_SET).isEqualTo(EVERYTHING_SET);
	}

	@Test
	void doesNotEqualNullOrAnotherType() {
		assertThat(EVERYTHING_SET.equals(null)).isFalse();
		assertThat(EVERYTHING_SET.equals("BatchOptions")).isFalse();
	}

	@Test
	void hashesUnsetOptionsTheSame() {
		assertThat(BatchOptions.builder().build()).hasSameHashCodeAs(BatchOptions.defaults());
	}

}
