package dev.redisbatch.internals;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

import io.netty.channel.EventLoop;
import io.netty.util.concurrent.EventExecutor;
import org.jspecify.annotations.Nullable;

/**
 * Which Netty event loop, if any, the calling thread runs: Netty says so through
 * {@code ThreadExecutorMap}, in an internal package of its own. Without it (a Netty that
 * lost it), no thread is known to be an event loop's.
 */
public final class EventLoops {

	/**
	 * Netty's {@code ThreadExecutorMap.currentExecutor()}, or {@code null} when the
	 * installed Netty has none.
	 */
	private static final @Nullable MethodHandle CURRENT_EXECUTOR = currentExecutorHandle();

	private EventLoops() {
	}

	private static @Nullable MethodHandle currentExecutorHandle() {
		try {
			Class<?> map = Class.forName("io.netty.util.internal.ThreadExecutorMap", false,
					EventLoop.class.getClassLoader());
			return MethodHandles.publicLookup()
				.findStatic(map, "currentExecutor", MethodType.methodType(EventExecutor.class));
		}
		catch (ReflectiveOperationException | RuntimeException | LinkageError ex) {
			return null;
		}
	}

	/**
	 * Whether the calling thread is a Netty event loop's (Lettuce's, or Reactor Netty's),
	 * which must never wait for replies.
	 * @return whether it is
	 */
	public static boolean onEventLoop() {
		MethodHandle current = CURRENT_EXECUTOR;
		if (current == null) {
			return false;
		}
		try {
			return (EventExecutor) current.invokeExact() instanceof EventLoop;
		}
		catch (Throwable ex) {
			return false;
		}
	}

	/**
	 * Whether Netty's map of threads to event loops was found.
	 */
	static boolean known() {
		return CURRENT_EXECUTOR != null;
	}

}
