package dev.redisbatch;

import java.time.Duration;
import java.util.function.LongConsumer;

import io.github.bucket4j.BlockingStrategy;
import io.github.bucket4j.Bucket;
import org.jspecify.annotations.Nullable;

/**
 * A {@link Throttle} on Bucket4j token buckets: one bucket for commands and one for
 * bytes, each refilled greedily at its rate per second and holding a tenth of a second's
 * worth, so that a run is never more than a tenth of a second ahead of its cap. A chunk
 * takes its commands' and bytes' tokens before it is written, in pieces when it needs
 * more than a bucket holds: it then waits as long as its size takes at the cap.
 * <p>
 * Waiting parks the thread ({@link BlockingStrategy#PARKING}) and ends at an interrupt.
 * The buckets are not shared between threads: a batch runs on one thread.
 */
final class BucketThrottle implements Throttle {

	private static final Duration SECOND = Duration.ofSeconds(1);

	private final @Nullable Bucket commands;

	private final long commandBurst;

	private final @Nullable Bucket bytes;

	private final long byteBurst;

	private final LongConsumer waited;

	BucketThrottle(long commandsPerSecond, long bytesPerSecond, LongConsumer waited) {
		this.commandBurst = burst(commandsPerSecond);
		this.commands = (commandsPerSecond > 0) ? bucket(commandsPerSecond, this.commandBurst) : null;
		this.byteBurst = burst(bytesPerSecond);
		this.bytes = (bytesPerSecond > 0) ? bucket(bytesPerSecond, this.byteBurst) : null;
		this.waited = waited;
	}

	/**
	 * A tenth of a second's worth, at least one token.
	 */
	private static long burst(long perSecond) {
		return Math.max(1, perSecond / 10);
	}

	private static Bucket bucket(long perSecond, long burst) {
		return Bucket.builder()
			.addLimit((limit) -> limit.capacity(burst).refillGreedy(perSecond, SECOND))
			.withNanosecondPrecision()
			.build();
	}

	@Override
	public boolean admit(int commandCount, long byteCount) {
		long start = System.nanoTime();
		try {
			take(this.commands, commandCount, this.commandBurst);
			take(this.bytes, byteCount, this.byteBurst);
			return true;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
		finally {
			this.waited.accept(System.nanoTime() - start);
		}
	}

	private static void take(@Nullable Bucket bucket, long tokens, long burst) throws InterruptedException {
		if (bucket == null) {
			return;
		}
		long left = tokens;
		while (left > 0) {
			long piece = Math.min(left, burst);
			bucket.asBlocking().consume(piece, BlockingStrategy.PARKING);
			left -= piece;
		}
	}

}
