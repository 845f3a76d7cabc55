package dev.redisbatch.reactive;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Queue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiConsumer;

import dev.redisbatch.Batch;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.Exceptions;
import reactor.core.publisher.Operators;
import reactor.util.concurrent.Queues;
import reactor.util.context.Context;
import reactor.util.context.ContextView;

/**
 * Carries the elements of a {@link Publisher} to the thread that records them into a
 * batch, with backpressure: it requests {@value #PREFETCH} elements, and more only as the
 * batch thread takes them. That thread waits while the batch's in-flight window is full,
 * so the publisher is asked for more only as fast as Redis answers, and no more than
 * {@value #PREFETCH} elements ever wait here.
 * <p>
 * When the publisher gives nothing for 10 ms, what it gave is sent at once
 * ({@link Batch#flush()}), so that a slow stream is not held back until a chunk fills.
 * <p>
 * The publisher's side never blocks: it puts an element into a bounded lock-free queue
 * and wakes the batch thread if that one is parked. Only the batch thread waits, and only
 * it calls {@link Subscription#request(long)} and {@link Subscription#cancel()}, so those
 * calls are serial as the Reactive Streams rules require.
 *
 * @param <T> the element type
 */
final class Feed<T> implements CoreSubscriber<T> {

	static final int PREFETCH = 256;

	private static final int REPLENISH = PREFETCH - (PREFETCH >> 2);

	/**
	 * How long the publisher may give nothing before what it gave is sent in a partly
	 * filled chunk; also bounds the wait should a wake-up ever be missed.
	 */
	private static final long IDLE_NANOS = 10_000_000;

	private static final VarHandle WAITING;

	static {
		try {
			WAITING = MethodHandles.lookup().findVarHandle(Feed.class, "waiting", boolean.class);
		}
		catch (ReflectiveOperationException ex) {
			throw new ExceptionInInitializerError(ex);
		}
	}

	private final Publisher<T> source;

	private final Context context;

	private final Queue<T> queue = Queues.<T>get(PREFETCH).get();

	private volatile @Nullable Subscription upstream;

	private volatile @Nullable Thread consumer;

	/**
	 * Whether the batch thread is parked, or about to park, for an element.
	 */
	@SuppressWarnings("unused")
	private volatile boolean waiting;

	private volatile boolean done;

	private @Nullable Throwable error;

	/**
	 * Whether the subscriber of the result cancelled.
	 */
	private volatile boolean cancelled;

	Feed(Publisher<T> source, ContextView context) {
		this.source = source;
		this.context = Context.of(context);
	}

	/**
	 * On the batch thread: subscribe, and record every element into the batch until the
	 * publisher completes. Stops pulling when the batch stops sending (a lost connection,
	 * a deadline): what was recorded settles into outcomes, and the rest is never asked
	 * for.
	 * @throws CancellationException when the subscriber cancelled, or the thread was
	 * interrupted: the batch sends nothing more
	 * @throws RuntimeException the publisher's error, or the recorder's
	 */
	<B extends Batch<?, ?>> void recordInto(B batch, BiConsumer<? super B, ? super T> recorder) {
		if (this.cancelled) {
			throw new CancellationException("Cancelled before the batch started");
		}
		this.consumer = Thread.currentThread();
		this.source.subscribe(this);
		boolean requested = false;
		boolean unsent = false;
		int taken = 0;
		try {
			while (true) {
				if (this.cancelled) {
					throw new CancellationException("Cancelled: nothing more is sent");
				}
				Subscription subscription = this.upstream;
				if (!requested && subscription != null) {
					requested = true;
					subscription.request(PREFETCH);
				}
				T element = this.queue.poll();
				if (element != null) {
					recorder.accept(batch, element);
					unsent = true;
					if (++taken == REPLENISH && subscription != null) {
						taken = 0;
						subscription.request(REPLENISH);
					}
					if (batch.isStopped()) {
						cancelUpstream();
						return;
					}
				}
				else if (this.done && this.queue.isEmpty()) {
					Throwable failure = this.error;
					if (failure != null) {
						throw Exceptions.propagate(failure);
					}
					return;
				}
				else if (awaitElement() && unsent) {
					// the publisher is slow: send what it gave instead of holding it
					// until a chunk fills
					batch.flush();
					unsent = false;
				}
			}
		}
		catch (Throwable ex) {
			cancelUpstream();
			throw ex;
		}
	}

	/**
	 * On any thread: the subscriber of the batch's result cancelled. The batch thread
	 * cancels the publisher and ends the batch.
	 */
	void cancel() {
		this.cancelled = true;
		wake();
	}

	/**
	 * Whether the subscriber of the result cancelled: then nobody waits for the result.
	 */
	boolean isCancelled() {
		return this.cancelled;
	}

	@Override
	public Context currentContext() {
		return this.context;
	}

	@Override
	public void onSubscribe(Subscription subscription) {
		if (Operators.validate(this.upstream, subscription)) {
			this.upstream = subscription;
			wake();
		}
	}

	@Override
	public void onNext(T element) {
		if (this.done) {
			Operators.onNextDropped(element, this.context);
			return;
		}
		if (!this.queue.offer(element)) {
			// more than was requested: the publisher broke the contract
			onError(Exceptions.failWithOverflow("More elements arrived than the batch requested"));
			return;
		}
		wake();
	}

	@Override
	public void onError(Throwable failure) {
		if (this.done) {
			Operators.onErrorDropped(failure, this.context);
			return;
		}
		this.error = failure;
		this.done = true;
		wake();
	}

	@Override
	public void onComplete() {
		this.done = true;
		wake();
	}

	/**
	 * Wait for an element, the end, or a cancellation, up to {@link #IDLE_NANOS}.
	 * @return whether the publisher gave nothing for that long
	 */
	private boolean awaitElement() {
		this.waiting = true;
		boolean idle = false;
		if (this.queue.isEmpty() && !this.done && !this.cancelled) {
			LockSupport.parkNanos(this, IDLE_NANOS);
			if (Thread.currentThread().isInterrupted()) {
				this.waiting = false;
				throw new CancellationException("The batch thread was interrupted");
			}
			idle = this.queue.isEmpty() && !this.done;
		}
		this.waiting = false;
		return idle;
	}

	/**
	 * Wake the batch thread if it waits. The atomic swap orders the element's enqueue
	 * before the check, so a wake-up is never lost.
	 */
	private void wake() {
		if ((boolean) WAITING.getAndSet(this, false)) {
			Thread thread = this.consumer;
			if (thread != null) {
				LockSupport.unpark(thread);
			}
		}
	}

	/**
	 * On the batch thread only.
	 */
	private void cancelUpstream() {
		Subscription subscription = this.upstream;
		if (subscription != null) {
			subscription.cancel();
		}
	}

}
