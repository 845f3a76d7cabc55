package dev.redisbatch.autobatch;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts the writes auto-batching makes and the commands they carry.
 */
final class CountingListener implements WriteListener {

	private final AtomicLong writes = new AtomicLong();

	private final AtomicLong commands = new AtomicLong();

	private final AtomicInteger largest = new AtomicInteger();

	@Override
	public void written(int commands) {
		this.writes.incrementAndGet();
		this.commands.addAndGet(commands);
		this.largest.accumulateAndGet(commands, Math::max);
	}

	long writes() {
		return this.writes.get();
	}

	long commands() {
		return this.commands.get();
	}

	int largestWrite() {
		return this.largest.get();
	}

	void reset() {
		this.writes.set(0);
		this.commands.set(0);
		this.largest.set(0);
	}

}
