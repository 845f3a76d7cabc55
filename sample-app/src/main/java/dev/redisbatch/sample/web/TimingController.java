package dev.redisbatch.sample.web;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.redisbatch.sample.SampleProperties;
import dev.redisbatch.sample.redis.RedisRouter;
import dev.redisbatch.sample.strategy.BatchTemplateStrategy;
import dev.redisbatch.sample.strategy.Deadline;
import dev.redisbatch.sample.strategy.DemoStrategy;
import dev.redisbatch.sample.strategy.OneCommandPerRoundTripStrategy;
import dev.redisbatch.sample.strategy.RedisBatchAnnotationStrategy;
import dev.redisbatch.sample.timing.Comparison;
import dev.redisbatch.sample.timing.ComparisonService;
import dev.redisbatch.sample.timing.DemoTimer;
import dev.redisbatch.sample.timing.Jvm;
import dev.redisbatch.sample.timing.Operation;
import dev.redisbatch.sample.timing.RunGuard;
import dev.redisbatch.sample.timing.Sweep;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Pattern;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The sample's JSON endpoints. Every {@code count} is checked ({@code 1} to
 * {@code sample.max-count}) before any Redis I/O; a bad one gets HTTP 400 with a problem
 * detail.
 *
 * @since 0.1.0
 */
@RestController
@RequestMapping(path = "/redis", produces = "application/json")
public class TimingController {

	/**
	 * The round-trip times the page offers, in milliseconds.
	 */
	public static final List<Integer> RTT_CHOICES = List.of(0, 1, 5, 20);

	private static final Jvm JVM = Jvm.current();

	private final OneCommandPerRoundTripStrategy noPipeline;

	private final BatchTemplateStrategy pipeline;

	private final RedisBatchAnnotationStrategy annotated;

	private final DemoTimer timer;

	private final ComparisonService comparisons;

	private final RunGuard guard;

	private final RedisRouter router;

	private final SampleProperties properties;

	/**
	 * Create the controller.
	 * @param noPipeline one command per round trip
	 * @param pipeline the batch template with its defaults
	 * @param annotated an {@code @RedisBatch} method around template calls
	 * @param timer times one strategy
	 * @param comparisons runs comparisons and sweeps
	 * @param guard knows what runs
	 * @param router knows and sets the simulated round-trip time
	 * @param properties the sample's properties
	 */
	public TimingController(OneCommandPerRoundTripStrategy noPipeline,
			@Qualifier("batchTemplateStrategy") BatchTemplateStrategy pipeline, RedisBatchAnnotationStrategy annotated,
			DemoTimer timer, ComparisonService comparisons, RunGuard guard, RedisRouter router,
			SampleProperties properties) {
		this.noPipeline = noPipeline;
		this.pipeline = pipeline;
		this.annotated = annotated;
		this.timer = timer;
		this.comparisons = comparisons;
		this.guard = guard;
		this.router = router;
		this.properties = properties;
	}

	/**
	 * One {@code SET} (with a one-hour TTL) per round trip.
	 * @param count the number of keys
	 * @return the timing
	 */
	@GetMapping("/no/pipeline/{count}")
	public TimingResponse setWithoutPipeline(@PathVariable @Min(1) @MaxCount int count) {
		return TimingResponse.of(this.timer.set(this.noPipeline, count, Deadline.none()));
	}

	/**
	 * The same {@code SET}s through the batch template.
	 * @param count the number of keys
	 * @return the timing
	 */
	@GetMapping("/pipeline/{count}")
	public TimingResponse setWithPipeline(@PathVariable @Min(1) @MaxCount int count) {
		return TimingResponse.of(this.timer.set(this.pipeline, count, Deadline.none()));
	}

	/**
	 * The same {@code SET}s as plain {@code StringRedisTemplate} calls in an
	 * {@code @RedisBatch} method.
	 * @param count the number of keys
	 * @return the timing
	 */
	@GetMapping("/annotation/pipeline/{count}")
	public TimingResponse setWithAnnotation(@PathVariable @Min(1) @MaxCount int count) {
		return TimingResponse.of(this.timer.set(this.annotated, count, Deadline.none()));
	}

	/**
	 * One {@code GET} per round trip.
	 * @param count the number of keys
	 * @return the timing and the values in key order
	 */
	@GetMapping("/no/pipeline/get/{count}")
	public GetTimingResponse getWithoutPipeline(@PathVariable @Min(1) @MaxCount int count) {
		return GetTimingResponse.of(this.timer.get(this.noPipeline, count, Deadline.none()));
	}

	/**
	 * The same {@code GET}s through the batch template.
	 * @param count the number of keys
	 * @return the timing and the values in key order
	 */
	@GetMapping("/pipeline/get/{count}")
	public GetTimingResponse getWithPipeline(@PathVariable @Min(1) @MaxCount int count) {
		return GetTimingResponse.of(this.timer.get(this.pipeline, count, Deadline.none()));
	}

	/**
	 * Every strategy (or the selected ones) on the same data, side by side. One
	 * comparison or sweep runs at a time; another one gets HTTP 429.
	 * @param count the number of keys
	 * @param operation {@code set} (the default) or {@code get}
	 * @param strategies the names of the strategies to run (all when absent)
	 * @return one row per strategy
	 */
	@GetMapping("/compare/{count}")
	public Comparison compare(@PathVariable @Min(1) @MaxCount int count,
			@RequestParam(defaultValue = "set") @Pattern(regexp = "(?i)set|get",
					message = "must be set or get") String operation,
			@RequestParam(required = false) @Nullable List<String> strategies) {
		List<DemoStrategy> selected = select(strategies);
		return this.comparisons.compare(Operation.of(operation), count, selected);
	}

	/**
	 * {@code SET} through the batch template with chunk sizes 1, 2, 4, ... 10,000. One
	 * comparison or sweep runs at a time; another one gets HTTP 429.
	 * @param count the number of keys
	 * @return one point per chunk size
	 */
	@GetMapping("/sweep/{count}")
	public Sweep sweep(@PathVariable @Min(1) @MaxCount int count) {
		return this.comparisons.sweep(count);
	}

	/**
	 * What the page needs: limits, strategies, the simulated round-trip time and where
	 * traffic goes.
	 * @return the setup
	 */
	@GetMapping("/setup")
	public Setup setup() {
		List<Setup.Strategy> strategies = new ArrayList<>();
		for (DemoStrategy strategy : this.comparisons.strategies()) {
			strategies.add(new Setup.Strategy(strategy.name(), strategy.description()));
		}
		return new Setup(this.properties.getMaxCount(), this.router.roundTrip().toNanos() / 1_000_000.0, RTT_CHOICES,
				this.router.isRoundTripAdjustable(), this.guard.running(), this.properties.getTimeBudget().toMillis(),
				this.properties.getSweep().getPointBudget().toMillis(), this.router.route(), JVM, strategies);
	}

	/**
	 * Change the simulated round-trip time at runtime, without reconnecting.
	 * @param millis one of 0, 1, 5 or 20, or the value of {@code sample.simulated-rtt}
	 * @return the setup after the change
	 */
	@PutMapping("/rtt/{millis}")
	public Setup roundTrip(@PathVariable int millis) {
		long configured = this.properties.getSimulatedRtt().toMillis();
		if (!RTT_CHOICES.contains(millis) && millis != configured) {
			throw problem(HttpStatus.BAD_REQUEST, "Unsupported round-trip time",
					"The simulated round-trip time must be one of " + RTT_CHOICES + " ms (or " + configured
							+ " ms, sample.simulated-rtt)");
		}
		if (!this.router.isRoundTripAdjustable()) {
			throw problem(HttpStatus.CONFLICT, "No latency proxy",
					"Redis traffic does not go through the latency proxy, so the round-trip time cannot be changed");
		}
		this.router.roundTrip(Duration.ofMillis(millis));
		return setup();
	}

	private List<DemoStrategy> select(@Nullable List<String> names) {
		List<DemoStrategy> all = this.comparisons.strategies();
		if (names == null || names.isEmpty()) {
			return all;
		}
		Map<String, DemoStrategy> byName = new LinkedHashMap<>();
		all.forEach((strategy) -> byName.put(strategy.name(), strategy));
		Set<String> unknown = new LinkedHashSet<>(names);
		unknown.removeAll(byName.keySet());
		if (!unknown.isEmpty()) {
			throw problem(HttpStatus.BAD_REQUEST, "Unknown strategy",
					"strategies must be among " + byName.keySet() + "; unknown: " + Echo.of(unknown));
		}
		List<DemoStrategy> selected = new ArrayList<>();
		for (DemoStrategy strategy : all) {
			if (names.contains(strategy.name())) {
				selected.add(strategy);
			}
		}
		return selected;
	}

	private static ErrorResponseException problem(HttpStatus status, String title, String detail) {
		ErrorResponseException ex = new ErrorResponseException(status);
		ex.getBody().setTitle(title);
		ex.getBody().setDetail(detail);
		return ex;
	}

}
