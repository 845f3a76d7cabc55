package dev.redisbatch.wire;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Who uses a batch connection, whether it is closed, and who waits for it: what the event
 * loop and the batch's thread hand each other about the connection. A batch's lease and
 * Lettuce's own commands (its handshake, a re-authentication, a bulk operation's
 * {@code SCAN}) exclude each other, so that neither is ever given the other's replies.
 */
final class LeaseState {

	/**
	 * How long the batch's thread waits for the replies to Lettuce's own commands, or for
	 * the event loop to start or stop reading.
	 */
	static final long SWITCH_NANOS = TimeUnit.SECONDS.toNanos(10);

	/**
	 * The connection is idle: neither a batch nor Lettuce is using it.
	 */
	private static final int IDLE = 0;

	/**
	 * A batch leases the connection: every byte read is its chunks' replies.
	 */
	private static final int LEASED = 1;

	/**
	 * Lettuce wrote commands of its own between leases, and waits for their replies: no
	 * lease starts until they are in.
	 */
	private static final int LETTUCE = 2;

	private final AtomicInteger state = new AtomicInteger(IDLE);

	private volatile boolean closed;

	private volatile Thread waiter;

	/**
	 * Lease the connection, unless it is in use.
	 * @return whether the batch's thread leases it now
	 */
	boolean tryLease() {
		return this.state.compareAndSet(IDLE, LEASED);
	}

	/**
	 * Lease the connection whatever its state: it is closed, and the lease's chunks are
	 * not sent.
	 */
	void leaseClosed() {
		this.state.set(LEASED);
	}

	/**
	 * End the lease: the connection is idle again.
	 */
	void endLease() {
		this.state.set(IDLE);
	}

	boolean isLeased() {
		return this.state.get() == LEASED;
	}

	boolean isLettuces() {
		return this.state.get() == LETTUCE;
	}

	/**
	 * Mark the connection as Lettuce's, unless a batch leases it (on the event loop).
	 * @return whether Lettuce may write on it now
	 */
	boolean claimForLettuce() {
		while (true) {
			int current = this.state.get();
			if (current == LEASED) {
				return false;
			}
			if (current == LETTUCE || this.state.compareAndSet(current, LETTUCE)) {
				return true;
			}
		}
	}

	/**
	 * Every command Lettuce wrote has its reply: a lease may start (on the event loop).
	 */
	void answered() {
		this.state.compareAndSet(LETTUCE, IDLE);
		wake();
	}

	boolean isClosed() {
		return this.closed;
	}

	/**
	 * The connection is closed: whoever waits returns.
	 */
	void closed() {
		this.closed = true;
		wake();
	}

	/**
	 * Wait until Lettuce's commands have their replies, the connection closes or the wait
	 * passes {@link #SWITCH_NANOS}.
	 * @return whether the connection is Lettuce's no more, and open
	 */
	boolean awaitLettuce() {
		long deadline = System.nanoTime() + SWITCH_NANOS;
		waiting();
		try {
			while (this.state.get() == LETTUCE && !this.closed) {
				if (!park(deadline)) {
					return false;
				}
			}
		}
		finally {
			doneWaiting();
		}
		return !this.closed;
	}

	/**
	 * The calling thread is about to check what it waits for, and park until it comes:
	 * from now on, {@link #wake()} unparks it, so that nothing that comes after the check
	 * is missed.
	 */
	void waiting() {
		this.waiter = Thread.currentThread();
	}

	/**
	 * The calling thread waits no more.
	 */
	void doneWaiting() {
		this.waiter = null;
	}

	/**
	 * Park the calling thread (between {@link #waiting()} and {@link #doneWaiting()})
	 * until woken, the deadline passes or the thread is interrupted.
	 * @param deadline a {@link System#nanoTime()} value
	 * @return {@code false} when the deadline passed or the thread is interrupted (its
	 * flag stays set), without parking
	 */
	boolean park(long deadline) {
		long left = deadline - System.nanoTime();
		if (left <= 0 || Thread.currentThread().isInterrupted()) {
			return false;
		}
		LockSupport.parkNanos(this, left);
		return true;
	}

	/**
	 * Wake the thread that waits, if any.
	 */
	void wake() {
		Thread thread = this.waiter;
		if (thread != null) {
			LockSupport.unpark(thread);
		}
	}

}
