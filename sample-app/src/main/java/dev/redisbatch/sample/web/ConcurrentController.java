package dev.redisbatch.sample.web;

import java.time.Duration;

import dev.redisbatch.sample.concurrent.AutoBatchingComparison;
import dev.redisbatch.sample.concurrent.ConcurrentComparison;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The concurrent scenario of auto-batching: {@code threads} platform threads call a
 * {@code StringRedisTemplate} with one GET or SET at a time for {@code millis}, without
 * and then with auto-batching. Both inputs are checked before any Redis I/O; a bad one
 * gets HTTP 400 with a problem detail, and a run while another comparison runs gets HTTP
 * 429.
 *
 * @since 0.1.0
 */
@RestController
@RequestMapping(path = "/redis", produces = "application/json")
public class ConcurrentController {

	/**
	 * The most threads one run may start.
	 */
	public static final int MAX_THREADS = 256;

	/**
	 * The longest each side of one run may take, in milliseconds.
	 */
	public static final int MAX_MILLIS = 10_000;

	private final AutoBatchingComparison comparison;

	/**
	 * Create the controller.
	 * @param comparison runs the scenario
	 */
	public ConcurrentController(AutoBatchingComparison comparison) {
		this.comparison = comparison;
	}

	/**
	 * Run the scenario on both sides.
	 * @param threads the platform threads calling at once, 1 to 256
	 * @param millis how long each side runs, 100 to 10,000
	 * @return both sides
	 */
	@GetMapping("/concurrent")
	public ConcurrentComparison concurrent(@RequestParam(defaultValue = "64") @Min(1) @Max(MAX_THREADS) int threads,
			@RequestParam(defaultValue = "1000") @Min(100) @Max(MAX_MILLIS) int millis) {
		return this.comparison.compare(threads, Duration.ofMillis(millis));
	}

}
