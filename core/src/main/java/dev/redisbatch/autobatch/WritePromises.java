package dev.redisbatch.autobatch;

import java.util.ArrayList;
import java.util.List;

import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelPromise;

/**
 * The write promises of the commands that leave in one write: when that write completes,
 * each completes the same way, in the order the commands were written. Lettuce's own
 * listeners on them (the command's place in the reply queue, its retry or cancellation
 * after a failed write) then run as they would have for a write of its own. A void
 * promise fails by firing the failure down the pipeline, as Netty does with it.
 */
final class WritePromises implements ChannelFutureListener {

	private final List<ChannelPromise> promises;

	WritePromises(int expected) {
		this.promises = new ArrayList<>(expected);
	}

	void add(ChannelPromise promise) {
		this.promises.add(promise);
	}

	int size() {
		return this.promises.size();
	}

	@Override
	public void operationComplete(ChannelFuture write) {
		if (write.isSuccess()) {
			for (ChannelPromise promise : this.promises) {
				promise.trySuccess();
			}
		}
		else {
			fail(write.cause());
		}
	}

	void fail(Throwable cause) {
		for (ChannelPromise promise : this.promises) {
			promise.tryFailure(cause);
		}
	}

}
