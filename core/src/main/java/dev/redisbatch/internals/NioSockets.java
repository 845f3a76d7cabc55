package dev.redisbatch.internals;

import java.lang.reflect.Method;
import java.nio.channels.SocketChannel;
import java.util.List;

import io.netty.channel.Channel;
import io.netty.channel.nio.AbstractNioChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.ReflectionHints;

/**
 * The JDK socket behind a Netty NIO channel, which Netty keeps behind a protected method,
 * {@code AbstractNioChannel.javaChannel()}.
 */
public final class NioSockets {

	/**
	 * The name of Netty's method.
	 */
	public static final String JAVA_CHANNEL = "javaChannel";

	/**
	 * That method, made accessible once; {@code null} in a Netty without it.
	 */
	private static final @Nullable Method JAVA_CHANNEL_METHOD = javaChannelMethod();

	private NioSockets() {
	}

	private static @Nullable Method javaChannelMethod() {
		try {
			Method method = AbstractNioChannel.class.getDeclaredMethod(JAVA_CHANNEL);
			method.setAccessible(true);
			return method;
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			return null;
		}
	}

	/**
	 * Let a native image call Netty's method reflectively.
	 * @param hints the application's reflection hints
	 */
	public static void registerHints(ReflectionHints hints) {
		hints.registerType(AbstractNioChannel.class,
				(type) -> type.withMethod(JAVA_CHANNEL, List.of(), ExecutableMode.INVOKE));
	}

	/**
	 * Whether Netty's method was found and may be called.
	 * @return whether it may
	 */
	public static boolean available() {
		return JAVA_CHANNEL_METHOD != null;
	}

	/**
	 * The socket of a NIO channel.
	 * @param channel a channel
	 * @return its socket, or {@code null} for another transport's channel or a Netty
	 * without the method
	 */
	public static @Nullable SocketChannel socketOf(Channel channel) {
		Method javaChannel = JAVA_CHANNEL_METHOD;
		if (!(channel instanceof NioSocketChannel) || javaChannel == null) {
			return null;
		}
		try {
			return (javaChannel.invoke(channel) instanceof SocketChannel socket) ? socket : null;
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			return null;
		}
	}

}
