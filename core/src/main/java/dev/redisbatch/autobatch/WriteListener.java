package dev.redisbatch.autobatch;

/**
 * Hears of every write auto-batching makes to a connection, with the number of commands
 * it carries: the distribution of commands per write is what auto-batching buys. At low
 * load every write carries one command; under concurrency, many.
 * <p>
 * Called on the connection's event loop, once per write: keep it short and never block.
 *
 * @since 0.1.0
 * @see AutoBatchingMetrics
 */
@FunctionalInterface
public interface WriteListener {

	/**
	 * A listener that does nothing.
	 */
	WriteListener NONE = (commands) -> {
	};

	/**
	 * A write left for the connection's socket.
	 * @param commands the number of commands it carries, at least 1
	 */
	void written(int commands);

}
