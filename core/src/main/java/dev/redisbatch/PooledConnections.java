package dev.redisbatch;

import java.time.Duration;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import java.util.function.Supplier;

import dev.redisbatch.internals.LettuceErrors;
import org.apache.commons.pool2.BasePooledObjectFactory;
import org.apache.commons.pool2.PooledObject;
import org.apache.commons.pool2.PooledObjectState;
import org.apache.commons.pool2.impl.DefaultPooledObject;
import org.jspecify.annotations.Nullable;

/**
 * Opens, checks and closes the pooled connections of one server ({@link NodePool}'s
 * commons-pool2 factory).
 */
final class PooledConnections extends BasePooledObjectFactory<BatchConnection> {

	private final Supplier<BatchConnection> connector;

	private final Set<BatchConnection> retired;

	private final Set<CompletableFuture<Void>> closing = ConcurrentHashMap.newKeySet();

	private final Predicate<BatchConnection> socketOpen;

	PooledConnections(Supplier<BatchConnection> connector, Set<BatchConnection> retired,
			Predicate<BatchConnection> socketOpen) {
		this.connector = connector;
		this.retired = retired;
		this.socketOpen = socketOpen;
	}

	/**
	 * Open a connection. One closed during its handshake is {@link ClosedBeforeUse}, so
	 * that the borrow replaces it.
	 */
	@Override
	public BatchConnection create() {
		try {
			return this.connector.get();
		}
		catch (RuntimeException ex) {
			if (LettuceErrors.handshakeAnswerLost(ex)) {
				throw new ClosedBeforeUse(ex);
			}
			throw ex;
		}
	}

	@Override
	public PooledObject<BatchConnection> wrap(BatchConnection connection) {
		return new DefaultPooledObject<>(connection);
	}

	/**
	 * Whether a connection can serve a batch: it is open, and was not retired. On borrow
	 * (the connection is allocated then), one that cannot throws instead of answering
	 * {@code false}: for a connection it has just opened, commons-pool2 would otherwise
	 * throw a {@link NoSuchElementException} without a cause, which reads as an exhausted
	 * pool.
	 */
	@Override
	public boolean validateObject(PooledObject<BatchConnection> pooled) {
		BatchConnection connection = pooled.getObject();
		// the socket is read on borrow only: a connection coming back was read to
		// its last reply a moment ago
		boolean usable = (pooled.getState() == PooledObjectState.RETURNING)
				? connection.isOpen() && !this.retired.contains(connection) : usable(connection);
		if (!usable && pooled.getState() == PooledObjectState.ALLOCATED) {
			throw new ClosedBeforeUse(null);
		}
		return usable;
	}

	/**
	 * Whether a connection can serve the next batch: open, not retired, and its socket
	 * not closed by the server.
	 */
	boolean usable(BatchConnection connection) {
		return connection.isOpen() && !this.retired.contains(connection) && this.socketOpen.test(connection);
	}

	@Override
	public void destroyObject(PooledObject<BatchConnection> pooled) {
		BatchConnection connection = pooled.getObject();
		this.retired.remove(connection);
		CompletableFuture<Void> closed = connection.lettuce().closeAsync();
		this.closing.add(closed);
		closed.whenComplete((result, failure) -> this.closing.remove(closed));
	}

	void awaitClosing(Duration timeout) {
		try {
			CompletableFuture.allOf(this.closing.toArray(CompletableFuture[]::new))
				.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (ExecutionException | TimeoutException ex) {
			// the client's shutdown closes whatever is left
		}
	}

	/**
	 * A connection that cannot be used. Found on borrow, commons-pool2 ends the borrow
	 * with it as the cause when the connection was new (and moves on to the next one when
	 * it was idle), so that it is not mistaken for an exhausted pool. Thrown by the
	 * factory's create, it carries Lettuce's report of a handshake cut short. No stack
	 * trace: it never reaches a user.
	 */
	static final class ClosedBeforeUse extends RuntimeException {

		ClosedBeforeUse(@Nullable Throwable handshake) {
			super("closed before it could be used", handshake, false, false);
		}

	}

}
