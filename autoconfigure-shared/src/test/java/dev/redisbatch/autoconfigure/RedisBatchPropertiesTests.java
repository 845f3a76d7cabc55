package dev.redisbatch.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.jayway.jsonpath.JsonPath;
import dev.redisbatch.BatchConnectionPool;
import dev.redisbatch.BatchOptions;
import dev.redisbatch.StringBatchTemplate;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.io.ClassPathResource;

import static dev.redisbatch.autoconfigure.SpringBootLineTestSupport.boot;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every {@code redis.batch.*} property is valid on its own anywhere in its documented
 * range, its documented default is what it binds to, a value the library refuses stops
 * the application with a message naming the property, and idle limits above what the pool
 * can hold are capped, as commons-pool2 caps them, with one warning.
 */
@ExtendWith(OutputCaptureExtension.class)
class RedisBatchPropertiesTests {

	/**
	 * Each property with the smallest and largest value its description documents (for
	 * properties without an upper bound, a large value).
	 */
	private static final Map<String, List<String>> DOCUMENTED_RANGES = new LinkedHashMap<>();

	static {
		DOCUMENTED_RANGES.put("redis.batch.enabled", List.of("false", "true"));
		DOCUMENTED_RANGES.put("redis.batch.chunk-size", List.of("1", "1000000"));
		DOCUMENTED_RANGES.put("redis.batch.max-in-flight-bytes", List.of("1KB", "1GB"));
		DOCUMENTED_RANGES.put("redis.batch.max-in-flight-commands", List.of("1", "10000000"));
		DOCUMENTED_RANGES.put("redis.batch.timeout", List.of("1ms", "365d"));
		DOCUMENTED_RANGES.put("redis.batch.transactional", List.of("false", "true"));
		DOCUMENTED_RANGES.put("redis.batch.max-chunk-bytes", List.of("1KB", "1GB"));
		DOCUMENTED_RANGES.put("redis.batch.max-commands-per-second", List.of("0", "1000000000"));
		DOCUMENTED_RANGES.put("redis.batch.max-bytes-per-second", List.of("0B", "10GB"));
		DOCUMENTED_RANGES.put("redis.batch.retry.attempts", List.of("0", "10"));
		DOCUMENTED_RANGES.put("redis.batch.retry.backoff", List.of("0s", "1h"));
		DOCUMENTED_RANGES.put("redis.batch.pool.max-active", List.of("1", "1024"));
		DOCUMENTED_RANGES.put("redis.batch.pool.max-idle", List.of("0", "1024"));
		DOCUMENTED_RANGES.put("redis.batch.pool.min-idle", List.of("0", "1024"));
		DOCUMENTED_RANGES.put("redis.batch.pool.max-wait", List.of("1ms", "1h"));
		DOCUMENTED_RANGES.put("redis.batch.metrics.enabled", List.of("false", "true"));
		DOCUMENTED_RANGES.put("redis.batch.annotations.enabled", List.of("false", "true"));
		DOCUMENTED_RANGES.put("redis.batch.auto-batching.enabled", List.of("false", "true"));
		DOCUMENTED_RANGES.put("redis.batch.fast-path.enabled", List.of("false", "true"));
		DOCUMENTED_RANGES.put("redis.batch.auto-batching.max-write-bytes", List.of("1KB", "64MB"));
	}

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(boot().redisAutoConfiguration(), RedisBatchAutoConfiguration.class,
				AutoBatchingAutoConfiguration.class));

	@Test
	void everyPropertyInTheMetadataHasADocumentedRangeHereAndADescription() throws IOException {
		List<Map<String, Object>> properties = metadataProperties();
		assertThat(properties).extracting((property) -> property.get("name"))
			.containsExactlyInAnyOrderElementsOf(DOCUMENTED_RANGES.keySet());
		assertThat(properties).allSatisfy((property) -> assertThat(property.get("description")).isNotNull());
	}

	@ParameterizedTest(name = "{0}={1}")
	@MethodSource("everyPropertyAtEachEndOfItsRange")
	void eachPropertySetAloneToEitherEndOfItsRangeStartsTheApplication(String property, String value) {
		this.contextRunner.withPropertyValues(property + "=" + value).run((context) -> {
			assertThat(context).hasNotFailed();
			if (!value.equals("false") || !property.equals("redis.batch.enabled")) {
				assertThat(context).hasSingleBean(StringBatchTemplate.class);
			}
		});
	}

	static List<Object[]> everyPropertyAtEachEndOfItsRange() {
		return DOCUMENTED_RANGES.entrySet()
			.stream()
			.flatMap((entry) -> entry.getValue().stream().map((value) -> new Object[] { entry.getKey(), value }))
			.toList();
	}

	@Test
	void maxActiveAloneCapsTheIdleConnectionsInsteadOfFailing() {
		this.contextRunner.withPropertyValues("redis.batch.pool.max-active=4").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(BatchConnectionPool.class).getMaxActive()).isEqualTo(4);
			assertThat(context.getBean(BatchConnectionPool.class).getMaxIdle()).isEqualTo(4);
		});
	}

	@Test
	void idleLimitsAboveWhatThePoolCanHoldAreCappedWithOneWarning(CapturedOutput output) {
		this.contextRunner.withPropertyValues("redis.batch.pool.max-idle=16", "redis.batch.pool.min-idle=20")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				BatchConnectionPool pool = context.getBean(BatchConnectionPool.class);
				assertThat(pool.getMaxActive()).isEqualTo(8);
				assertThat(pool.getMaxIdle()).isEqualTo(8);
				assertThat(pool.getMinIdle()).isEqualTo(8);
			});
		assertThat(output.getOut().lines().filter((line) -> line.contains("WARN")))
			.singleElement(InstanceOfAssertFactories.STRING)
			.contains("redis.batch.pool.max-idle=16 is above redis.batch.pool.max-active=8: the batch pool keeps at "
					+ "most 8 idle connections per server")
			.contains("redis.batch.pool.min-idle=20 is above the effective max-idle of 8: the batch pool keeps 8 "
					+ "idle connections open per server");
	}

	@Test
	void minIdleAboveAMaxIdleSetLowerIsCappedAtIt(CapturedOutput output) {
		this.contextRunner
			.withPropertyValues("redis.batch.pool.max-active=4", "redis.batch.pool.max-idle=2",
					"redis.batch.pool.min-idle=3")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				BatchConnectionPool pool = context.getBean(BatchConnectionPool.class);
				assertThat(pool.getMaxIdle()).isEqualTo(2);
				assertThat(pool.getMinIdle()).isEqualTo(2);
			});
		assertThat(output).contains("redis.batch.pool.min-idle=3 is above the effective max-idle of 2")
			.doesNotContain("redis.batch.pool.max-idle=2 is above");
	}

	@Test
	void idleLimitsWithinWhatThePoolCanHoldAreKeptAsSetWithoutAWarning(CapturedOutput output) {
		this.contextRunner
			.withPropertyValues("redis.batch.pool.max-active=12", "redis.batch.pool.max-idle=6",
					"redis.batch.pool.min-idle=1")
			.run((context) -> {
				BatchConnectionPool pool = context.getBean(BatchConnectionPool.class);
				assertThat(pool.getMaxIdle()).isEqualTo(6);
				assertThat(pool.getMinIdle()).isEqualTo(1);
			});
		assertThat(output).doesNotContain("redis.batch.pool.");
	}

	@Test
	void theLibrarysRangeChecksAreReportedAgainstTheProperty() {
		assertInvalid("redis.batch.chunk-size", "0", "chunkSize must be between 1 and 1000000",
				"redis.batch.chunk-size=0");
		assertInvalid("redis.batch.max-in-flight-commands", "0", "maxInFlightCommands must be between 1 and 10000000",
				"redis.batch.max-in-flight-commands=0");
		assertInvalid("redis.batch.timeout", "PT0S", "must be positive", "redis.batch.timeout=0s");
		assertInvalid("redis.batch.max-chunk-bytes", "1023B", "must be at least 1024 bytes",
				"redis.batch.max-chunk-bytes=1023B");
		assertInvalid("redis.batch.max-commands-per-second", "-1", "must be 0 (no cap) or positive",
				"redis.batch.max-commands-per-second=-1");
		assertInvalid("redis.batch.retry.attempts", "11", "retry attempts must be between 0 and 10",
				"redis.batch.retry.attempts=11");
		assertInvalid("redis.batch.retry.backoff", "PT-1S", "retry backoff must not be negative",
				"redis.batch.retry.backoff=-1s");
		assertInvalid("redis.batch.pool.max-active", "0", "must be at least 1", "redis.batch.pool.max-active=0");
		assertInvalid("redis.batch.pool.max-idle", "-1", "must not be negative", "redis.batch.pool.max-idle=-1");
		assertInvalid("redis.batch.pool.max-wait", "PT0S", "never waits without bound", "redis.batch.pool.max-wait=0s");
	}

	@Test
	void theDocumentedDefaultsAreWhatThePropertiesBindToAndWhatTheTemplateRunsWith() throws IOException {
		Map<String, Object> documented = new LinkedHashMap<>();
		for (Map<String, Object> property : metadataProperties()) {
			if (property.get("defaultValue") != null) {
				documented.put((String) property.get("name"), property.get("defaultValue"));
			}
		}
		assertThat(documented).containsKeys("redis.batch.chunk-size", "redis.batch.max-in-flight-bytes",
				"redis.batch.max-in-flight-commands", "redis.batch.timeout", "redis.batch.max-chunk-bytes",
				"redis.batch.pool.max-active", "redis.batch.pool.max-wait", "redis.batch.pool.min-idle");
		Map<String, String> asText = new LinkedHashMap<>();
		documented.forEach((name, value) -> asText.put(name, String.valueOf(value)));
		RedisBatchProperties bound = new Binder(new MapConfigurationPropertySource(asText))
			.bind("redis.batch", Bindable.of(RedisBatchProperties.class))
			.get();
		RedisBatchProperties defaults = new RedisBatchProperties();
		assertThat(bound).usingRecursiveComparison().isEqualTo(defaults);
		BatchOptions options = RedisBatchPropertiesValidator.defaults(defaults);
		assertThat(options.chunkSize()).isEqualTo(defaults.getChunkSize());
		assertThat(options.maxInFlightBytes()).isEqualTo(defaults.getMaxInFlightBytes().toBytes());
		assertThat(options.maxInFlightCommands()).isEqualTo(defaults.getMaxInFlightCommands());
		assertThat(options.timeout()).isEqualTo(defaults.getTimeout());
		assertThat(options.maxChunkBytes()).isEqualTo(defaults.getMaxChunkBytes().toBytes());
		assertThat(options.maxCommandsPerSecond()).isEqualTo(defaults.getMaxCommandsPerSecond());
		assertThat(options.maxBytesPerSecond()).isEqualTo(defaults.getMaxBytesPerSecond().toBytes());
		assertThat(options.retryAttempts()).isEqualTo(defaults.getRetry().getAttempts());
		assertThat(options.retryBackoff()).isEqualTo(defaults.getRetry().getBackoff());
	}

	private void assertInvalid(String property, String value, String reason, String... properties) {
		this.contextRunner.withPropertyValues(properties).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining("Property " + property + " with value '" + value + "' is invalid")
				.hasMessageContaining(reason);
		});
	}

	private static List<Map<String, Object>> metadataProperties() throws IOException {
		try (InputStream json = new ClassPathResource("META-INF/spring-configuration-metadata.json").getInputStream()) {
			List<Map<String, Object>> properties = JsonPath.parse(json).read("$.properties[*]");
			return properties.stream()
				.filter((property) -> String.valueOf(property.get("name")).startsWith("redis.batch."))
				.toList();
		}
	}

}
