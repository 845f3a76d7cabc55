package dev.redisbatch.reactive;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.function.BiConsumer;

import dev.redisbatch.Batch;
import dev.redisbatch.BatchCallback;
import dev.redisbatch.BatchException;
import dev.redisbatch.BatchOptions;
import dev.redisbatch.BatchResults;
import dev.redisbatch.BatchTemplate;
import dev.redisbatch.Response;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.Exceptions;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.util.Assert;

/**
 * Batches for reactive code: a {@link Flux} of elements (entries, keys, or functions that
 * record commands) goes in, one {@link Mono} of {@link BatchResults} comes out. It is the
 * same batch as {@link BatchTemplate#execute(BatchOptions, BatchCallback)}, with the same
 * chunks, window, outcomes and metrics, run on the template's async threads
 * ({@link BatchTemplate#executeAsync(BatchOptions, BatchCallback)}), so nothing here
 * blocks the thread that subscribes or the one that publishes.
 *
 * <pre class="code">
 * Mono&lt;BatchResults&gt; saved = reactiveBatchTemplate.setAll(
 *         orders.map((order) -&gt; Map.entry("order:" + order.id(), order.json())), Duration.ofHours(1));
 * </pre>
 *
 * <ul>
 * <li><b>Backpressure.</b> The publisher is asked for {@value Feed#PREFETCH} elements,
 * and for more only as the batch records them; recording waits while the batch's
 * in-flight window to a server is full. A {@code Flux} of ten million elements runs in
 * the memory of one window.</li>
 * <li><b>Errors.</b> The {@code Mono} completes with the results when every command
 * succeeded, and fails with the same {@link BatchException} as {@code execute} otherwise.
 * An error of the publisher or of a recording function fails it with that error: nothing
 * more is sent, and the outcomes of what was are attached to it as a suppressed
 * {@code BatchException}.</li>
 * <li><b>Cancellation</b> stops recording, sends nothing more and cancels the publisher,
 * as soon as the batch thread sees it (at once, unless it waits for the window); the
 * commands already sent still get their replies, and the connections go back to the pool
 * (or are closed when their state is unknown).</li>
 * <li><b>Threads.</b> The result is usually signalled on the batch's thread: add
 * {@code publishOn} to continue elsewhere. The subscriber's {@code Context} reaches the
 * publisher.</li>
 * </ul>
 *
 * @param <K> the key type
 * @param <V> the value type
 * @since 0.1.0
 */
public class ReactiveBatchTemplate<K, V> {

	private static final Log logger = LogFactory.getLog(ReactiveBatchTemplate.class);

	private final BatchTemplate<K, V> batchTemplate;

	/**
	 * Create a reactive template that runs its batches with a blocking template's pool,
	 * serializers, defaults and observations.
	 * @param batchTemplate the template
	 */
	public ReactiveBatchTemplate(BatchTemplate<K, V> batchTemplate) {
		Assert.notNull(batchTemplate, "batchTemplate must not be null");
		this.batchTemplate = batchTemplate;
	}

	/**
	 * The template the batches run with.
	 * @return the template
	 */
	public BatchTemplate<K, V> getBatchTemplate() {
		return this.batchTemplate;
	}

	/**
	 * One batch of the commands that the published functions record, in order, with the
	 * default options.
	 * @param callbacks each records some commands
	 * @return the results
	 */
	public Mono<BatchResults> execute(Publisher<? extends BatchCallback<K, V>> callbacks) {
		return execute(BatchOptions.defaults(), callbacks);
	}

	/**
	 * One batch of the commands that the published functions record, in order.
	 * @param options the options; unset values come from the template's defaults
	 * @param callbacks each records some commands
	 * @return the results
	 */
	public Mono<BatchResults> execute(BatchOptions options, Publisher<? extends BatchCallback<K, V>> callbacks) {
		return execute(options, callbacks, (batch, callback) -> callback.doInBatch(batch));
	}

	/**
	 * One batch of the commands that a function records for each published element, in
	 * order, with the default options.
	 * @param <T> the element type
	 * @param elements the elements
	 * @param recorder records the commands of one element
	 * @return the results
	 */
	public <T> Mono<BatchResults> execute(Publisher<T> elements, BiConsumer<Batch<K, V>, ? super T> recorder) {
		return execute(BatchOptions.defaults(), elements, recorder);
	}

	/**
	 * One batch of the commands that a function records for each published element, in
	 * order. Nothing happens until the {@code Mono} is subscribed; each subscription runs
	 * the batch again and subscribes to the elements again.
	 * @param <T> the element type
	 * @param options the options; unset values come from the template's defaults
	 * @param elements the elements
	 * @param recorder records the commands of one element, on the batch's thread
	 * @return the results; an {@link IllegalArgumentException} for invalid options,
	 * before any I/O
	 */
	public <T> Mono<BatchResults> execute(BatchOptions options, Publisher<T> elements,
			BiConsumer<Batch<K, V>, ? super T> recorder) {
		Assert.notNull(options, "options must not be null");
		Assert.notNull(elements, "elements must not be null");
		Assert.notNull(recorder, "recorder must not be null");
		return Mono.create((sink) -> {
			Feed<T> feed = new Feed<>(elements, sink.contextView());
			sink.onCancel(feed::cancel);
			this.batchTemplate.executeAsync(options, (batch) -> feed.recordInto(batch, recorder))
				.whenComplete((results, failure) -> {
					try {
						if (failure == null) {
							sink.success(results);
						}
						else if (feed.isCancelled()) {
							logCancelled(failure);
						}
						else {
							sink.error(cause(failure));
						}
					}
					catch (Throwable ex) {
						// what downstream code threw, run on the batch thread
						logger.warn("A subscriber of a reactive batch threw while it received the result", ex);
					}
				});
		});
	}

	/**
	 * {@code SET} every published entry in one batch.
	 * @param entries the keys and values
	 * @param ttl the time to live of every key, or {@code null} for no expiry
	 * @return the results
	 */
	public Mono<BatchResults> setAll(Publisher<? extends Map.Entry<K, V>> entries, @Nullable Duration ttl) {
		Assert.isTrue(ttl == null || ttl.toMillis() >= 1, () -> "ttl must be at least 1 ms but was " + ttl);
		return execute(entries, (ttl != null) ? (batch, entry) -> batch.set(entry.getKey(), entry.getValue(), ttl)
				: (batch, entry) -> batch.set(entry.getKey(), entry.getValue()));
	}

	/**
	 * {@code GET} every published key in one batch.
	 * @param keys the keys
	 * @return the values, in the order of the keys, {@code null} where a key does not
	 * exist; the list holds every value, so its size bounds the memory
	 */
	public Mono<List<@Nullable V>> getAll(Publisher<K> keys) {
		Assert.notNull(keys, "keys must not be null");
		return Mono.defer(() -> {
			List<Response<@Nullable V>> responses = new ArrayList<>();
			return execute(keys, (batch, key) -> responses.add(batch.get(key))).map((results) -> {
				List<@Nullable V> values = new ArrayList<>(responses.size());
				for (Response<@Nullable V> response : responses) {
					values.add(response.get());
				}
				return values;
			});
		});
	}

	/**
	 * What the batch ended with, without the wrappers of the future and of Reactor (which
	 * wraps a checked exception of the publisher), and with the outcomes attached.
	 */
	private static Throwable cause(Throwable failure) {
		Throwable wrapped = BatchTemplate.unwrap(failure);
		Throwable cause = Exceptions.unwrap(wrapped);
		if (cause != wrapped) {
			for (Throwable suppressed : wrapped.getSuppressed()) {
				cause.addSuppressed(suppressed);
			}
		}
		return cause;
	}

	private static void logCancelled(Throwable failure) {
		if (logger.isDebugEnabled()) {
			Throwable cause = BatchTemplate.unwrap(failure);
			String outcome = (cause instanceof CancellationException) ? "cancelled" : cause.getClass().getName();
			for (Throwable suppressed : cause.getSuppressed()) {
				if (suppressed instanceof BatchException batch) {
					outcome += ": " + batch.getResults().summary();
				}
			}
			logger.debug("A reactive batch ended after its subscriber cancelled (" + outcome + ")");
		}
	}

}
