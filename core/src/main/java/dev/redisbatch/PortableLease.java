package dev.redisbatch;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A lease on the portable path: Lettuce's own pipelining, through its public API alone. A
 * chunk goes out as Lettuce commands dispatched together ({@link ReplySlots}), in one
 * write of the bytes recorded for it, and Lettuce decodes the replies into the commands'
 * outputs on the event loop. It keeps every promise of the fast path; it costs a hand-off
 * of every chunk's replies from the event loop to the batch's thread. Lettuce reads the
 * connection between batches too, so a server's close or restart since the last batch is
 * known when the pool lends it; a close not yet known (Netty tells Lettuce in a later
 * task) refuses the chunk's write whole, and the lane sends the chunk on a new
 * connection.
 */
final class PortableLease extends Lease {

	/**
	 * How long a lease waits for its connection to close, once it closed it (a deadline
	 * passed): until then Lettuce may still decode replies into the commands.
	 */
	private static final long CLOSE_SECONDS = 10;

	private boolean connectionLost;

	PortableLease(BatchConnection connection) {
		super(connection);
	}

	@Override
	Path path() {
		return Path.PORTABLE;
	}

	@Override
	boolean isOpen() {
		return lettuce().isOpen();
	}

	/**
	 * Lettuce reads the connection, and closes it when the server does: a server's close
	 * or restart since the last batch is known as soon as Lettuce's event loop has read
	 * it.
	 */
	@Override
	boolean isOpenForWrite() {
		return lettuce().isOpen();
	}

	@Override
	boolean write(Chunk chunk) {
		ReplySlots slots = chunk.replySlots();
		lettuce().dispatch(slots.commands());
		// a connection Lettuce knows to be closed refuses them at once, unwritten
		return !slots.isRefusedUnwritten();
	}

	@Override
	boolean wasWritten(Chunk chunk) {
		return chunk.replySlots().isWritten();
	}

	@Override
	boolean await(Chunk chunk, long deadline) {
		ReplySlots slots = chunk.replySlots();
		if (slots.await(deadline)) {
			return true;
		}
		giveUp(slots);
		return false;
	}

	@Override
	boolean takeArrived(Chunk chunk) {
		ReplySlots slots = chunk.replySlots();
		if (slots.isAnswered()) {
			return true;
		}
		giveUp(slots);
		return false;
	}

	/**
	 * The chunk settles without every reply: what comes from now on is dropped, and the
	 * connection is closed, so that no late reply is ever decoded while the batch reads
	 * the commands. It waits for the close even when the thread is interrupted (its flag
	 * stays set).
	 */
	private void giveUp(ReplySlots slots) {
		// every command ended before the deadline, some without a reply: Lettuce lost the
		// connection, which the lease did not close
		this.connectionLost = slots.isComplete() || !lettuce().isOpen();
		slots.abandon();
		CompletableFuture<Void> closed = lettuce().closeAsync();
		boolean interrupted = Thread.interrupted();
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(CLOSE_SECONDS);
		while (!closed.isDone() && deadline - System.nanoTime() > 0) {
			try {
				closed.get(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
			}
			catch (InterruptedException ex) {
				interrupted = true;
			}
			catch (ExecutionException | TimeoutException ex) {
				// closed as far as it can be
				break;
			}
		}
		if (interrupted) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * Whether the connection closed on its own before the chunk's replies came (not
	 * closed by the lease at a deadline or an interrupt).
	 */
	@Override
	boolean isClosed() {
		return this.connectionLost;
	}

	@Override
	boolean endLease() {
		return lettuce().isOpen();
	}

}
