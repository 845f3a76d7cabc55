package dev.redisbatch.sample.web;

import java.util.List;
import java.util.Map;

import dev.redisbatch.BatchOptions;
import dev.redisbatch.reactive.ReactiveBatchTemplate;
import dev.redisbatch.sample.strategy.DemoData;
import dev.redisbatch.sample.timing.DemoTimer;
import dev.redisbatch.sample.timing.Measurement;
import jakarta.validation.constraints.Min;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The reactive template's endpoints: the same {@code SET}s and {@code GET}s as
 * {@code /redis/pipeline/...}, from a {@code Flux} of keys into a {@code Mono} of the
 * timing. The request thread is never blocked: the batch runs on redis-batch's own
 * threads. This sample is a Spring MVC application, which serves a {@code Mono} as an
 * async request; in a WebFlux application the same controller runs unchanged on the event
 * loop.
 *
 * @since 0.1.0
 */
@RestController
@RequestMapping(path = "/redis/reactive", produces = "application/json")
public class ReactiveTimingController {

	/**
	 * The strategy's name in the answers.
	 */
	public static final String NAME = "reactive-batch-template";

	private static final BatchOptions OPTIONS = BatchOptions.builder().name("sample." + NAME).build();

	private final ReactiveBatchTemplate<String, String> reactiveBatchTemplate;

	/**
	 * Create the controller.
	 * @param reactiveBatchTemplate the reactive template of the starter
	 */
	public ReactiveTimingController(
			@Qualifier("reactiveStringBatchTemplate") ReactiveBatchTemplate<String, String> reactiveBatchTemplate) {
		this.reactiveBatchTemplate = reactiveBatchTemplate;
	}

	/**
	 * {@code SET} (with a one-hour TTL) {@code count} keys, published one by one.
	 * @param count the number of keys
	 * @return the timing
	 */
	@GetMapping("/pipeline/{count}")
	public Mono<TimingResponse> set(@PathVariable @Min(1) @MaxCount int count) {
		DemoData data = DemoData.of(count);
		return Mono.defer(() -> {
			long start = System.nanoTime();
			Flux<Map.Entry<String, String>> entries = Flux.range(0, count)
				.map((i) -> Map.entry(data.keys().get(i), data.values().get(i)));
			return this.reactiveBatchTemplate
				.execute(OPTIONS, entries, (batch, entry) -> batch.set(entry.getKey(), entry.getValue(), DemoTimer.TTL))
				.map((results) -> TimingResponse
					.of(new Measurement(NAME, count, results.size(), System.nanoTime() - start, null)));
		});
	}

	/**
	 * {@code GET} {@code count} keys, published one by one.
	 * @param count the number of keys
	 * @return the timing and the values in key order
	 */
	@GetMapping("/pipeline/get/{count}")
	public Mono<GetTimingResponse> get(@PathVariable @Min(1) @MaxCount int count) {
		List<String> keys = DemoData.of(count).keys();
		return Mono.defer(() -> {
			long start = System.nanoTime();
			return this.reactiveBatchTemplate.getAll(Flux.fromIterable(keys))
				.map((values) -> GetTimingResponse
					.of(new Measurement(NAME, count, values.size(), System.nanoTime() - start, values)));
		});
	}

}
