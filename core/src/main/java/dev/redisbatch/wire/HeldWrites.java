package dev.redisbatch.wire;

import java.nio.channels.ClosedChannelException;
import java.util.ArrayDeque;
import java.util.function.BiConsumer;

import io.netty.channel.ChannelPromise;
import io.netty.util.ReferenceCountUtil;

/**
 * What Lettuce wrote on a batch connection while a batch leased it (a re-authentication
 * on new credentials), held by its {@link Wire} until the lease ends. The writes are
 * touched on the channel's event loop only; {@link #any()} may be asked from any thread.
 */
final class HeldWrites {

	private final ArrayDeque<Held> held = new ArrayDeque<>(2);

	private volatile boolean any;

	/**
	 * Hold a write (on the event loop).
	 */
	void hold(Object message, ChannelPromise promise) {
		this.held.add(new Held(message, promise));
		this.any = true;
	}

	/**
	 * Whether a write is held: the lease's thread asks when its lease ends.
	 */
	boolean any() {
		return this.any;
	}

	/**
	 * Hand every held write, oldest first, to the writer (on the event loop).
	 */
	void writeAll(BiConsumer<Object, ChannelPromise> writer) {
		Held next;
		while ((next = this.held.poll()) != null) {
			writer.accept(next.message(), next.promise());
		}
		this.any = false;
	}

	/**
	 * Fail every held write and release its bytes: the connection closed before they
	 * could go out (on the event loop).
	 */
	void failAll() {
		writeAll((message, promise) -> {
			ReferenceCountUtil.release(message);
			promise.tryFailure(new ClosedChannelException());
		});
	}

	private record Held(Object message, ChannelPromise promise) {
	}

}
