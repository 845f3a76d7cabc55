package dev.redisbatch.internals;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Queue;
import java.util.function.Consumer;

import io.lettuce.core.RedisURI;
import io.netty.buffer.ByteBuf;
import io.netty.util.Version;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * What redis-batch relies on inside Lettuce and Netty, checked once against the versions
 * on the classpath, and the one sentence that says what did not match. The checks look
 * the classes, methods and fields up; nothing relies on one before it was checked.
 * <ul>
 * <li>{@link #fastPathMismatches()}: the fast path of batch connections (the batch's
 * handler between Lettuce's encoder and command handler, Lettuce's queue of commands
 * awaiting replies, its reply decoder). When one fails, batches take the portable path,
 * Lettuce's own pipelining.</li>
 * <li>{@link #callerIoMismatches()}: the batch's thread reading and writing a plaintext
 * connection's socket itself. When one fails, the event loop does.</li>
 * <li>{@link #recordingMismatches()} and {@link #springDataRedisRecordingMismatches()}:
 * {@code @RedisBatch}'s connections that record commands, in Lettuce and in Spring Data
 * Redis. It has no portable equivalent.</li>
 * <li>{@link #autoBatchingMismatches()}: auto-batching's coalescer in place of Lettuce's
 * encoder. When one fails, the application's connections stay as they are.</li>
 * </ul>
 */
public final class Compatibility {

	/**
	 * The versions the checks were made for, as the build tests them.
	 */
	public static final String TESTED = "Lettuce 6.6 to 7.7 with Netty 4.1 and 4.2";

	/**
	 * The versions of Spring Data Redis the checks were made for, as the build tests
	 * them.
	 */
	public static final String TESTED_SPRING_DATA_REDIS = "Spring Data Redis 3.5 to 4.1";

	private static final String LETTUCE = "io.lettuce.core.";

	private static final String NETTY = "io.netty.";

	private static volatile @Nullable List<String> fastPath;

	private static volatile @Nullable List<String> callerIo;

	private static volatile @Nullable List<String> autoBatching;

	private Compatibility() {
	}

	/**
	 * The Lettuce on the classpath, as its jar names it.
	 * @return its version, or {@code "unknown"}
	 */
	public static String lettuceVersion() {
		String version = RedisURI.class.getPackage().getImplementationVersion();
		return (version != null) ? version.replaceAll("/.*", "") : "unknown";
	}

	/**
	 * The Netty on the classpath.
	 * @return its version, or {@code "unknown"}
	 */
	public static String nettyVersion() {
		Version common = Version.identify(ByteBuf.class.getClassLoader()).get("netty-common");
		return (common != null) ? common.artifactVersion() : "unknown";
	}

	/**
	 * What the fast path relies on and the classpath does not have.
	 * @return what did not match, empty when everything did
	 */
	public static List<String> fastPathMismatches() {
		List<String> found = fastPath;
		if (found == null) {
			List<String> mismatches = new ArrayList<>();
			requireMethod(mismatches, LETTUCE + "protocol.CommandHandler", "getStack", Queue.class);
			requireMethod(mismatches, LETTUCE + "protocol.CommandHandler", "getEndpoint", null);
			requireClass(mismatches, LETTUCE + "protocol.CommandEncoder");
			requireMethod(mismatches, LETTUCE + "RedisChannelHandler", "getChannelWriter", null);
			requireConstructor(mismatches, LETTUCE + "protocol.RedisStateMachine");
			requireMethod(mismatches, LETTUCE + "protocol.RedisStateMachine", "decode", boolean.class, ByteBuf.class,
					type(LETTUCE + "output.CommandOutput"), Consumer.class);
			found = Collections.unmodifiableList(mismatches);
			fastPath = found;
		}
		return found;
	}

	/**
	 * What the batch's own thread needs to read and write a plaintext connection's socket
	 * and the classpath does not have.
	 * @return what did not match, empty when everything did
	 */
	public static List<String> callerIoMismatches() {
		List<String> found = callerIo;
		if (found == null) {
			List<String> mismatches = new ArrayList<>();
			if (!NioSockets.available()) {
				mismatches.add("Netty's AbstractNioChannel.javaChannel() cannot be called");
			}
			requireDeclaredMethod(mismatches, LETTUCE + "RedisClient", "connectionBuilder",
					"reactor.core.publisher.Mono", LETTUCE + "ConnectionBuilder", LETTUCE + "ConnectionEvents",
					LETTUCE + "RedisURI");
			found = Collections.unmodifiableList(mismatches);
			callerIo = found;
		}
		return found;
	}

	/**
	 * What {@code @RedisBatch}'s recording connections rely on and the classpath does not
	 * have.
	 * @return what did not match, empty when everything did
	 */
	public static List<String> recordingMismatches() {
		List<String> mismatches = new ArrayList<>();
		requireConstructor(mismatches, LETTUCE + "StatefulRedisConnectionImpl", LETTUCE + "RedisChannelWriter",
				LETTUCE + "protocol.PushHandler", LETTUCE + "codec.RedisCodec", Duration.class.getName());
		requireClass(mismatches, LETTUCE + "RedisChannelWriter");
		return mismatches;
	}

	/**
	 * What {@code @RedisBatch}'s recording connections rely on in Spring Data Redis (its
	 * pipelining {@code LettuceConnection} on a connection of redis-batch's) and the
	 * classpath does not have.
	 * @return what did not match, empty when everything did
	 */
	public static List<String> springDataRedisRecordingMismatches() {
		List<String> mismatches = new ArrayList<>();
		requireConstructor(mismatches, "org.springframework.data.redis.connection.lettuce.LettuceConnection",
				"io.lettuce.core.api.StatefulRedisConnection",
				"org.springframework.data.redis.connection.lettuce.LettuceConnectionProvider", "long", "int");
		return mismatches;
	}

	/**
	 * What auto-batching's coalescer relies on and the classpath does not have.
	 * @return what did not match, empty when everything did
	 */
	public static List<String> autoBatchingMismatches() {
		List<String> found = autoBatching;
		if (found == null) {
			List<String> mismatches = new ArrayList<>();
			requireClass(mismatches, LETTUCE + "protocol.CommandEncoder");
			requireMethod(mismatches, LETTUCE + "protocol.RedisCommand", "encode", void.class, ByteBuf.class);
			found = Collections.unmodifiableList(mismatches);
			autoBatching = found;
		}
		return found;
	}

	/**
	 * The sentence that says what a part of redis-batch needs and did not find.
	 * @param what what relies on the checks, for example "The fast path of batch
	 * connections to 127.0.0.1:6379"
	 * @param mismatches what did not match
	 * @param instead what happens instead, for example "batches take the portable path"
	 * @return the sentence
	 */
	public static String describe(String what, List<String> mismatches, String instead) {
		return describe(what, TESTED, found(), mismatches, instead);
	}

	/**
	 * The sentence that says what a part of redis-batch needs and did not find, in
	 * libraries that it names.
	 * @param what what relies on the checks
	 * @param tested the versions the checks were made for, for example
	 * {@link #TESTED_SPRING_DATA_REDIS}
	 * @param found the versions found, for example {@link #foundSpringDataRedis()}
	 * @param mismatches what did not match
	 * @param instead what happens instead, and what to do
	 * @return the sentence
	 */
	public static String describe(String what, String tested, String found, List<String> mismatches, String instead) {
		return what + " is checked against " + tested + ", and this application has " + found + ", where "
				+ String.join("; ", mismatches) + ": " + instead;
	}

	/**
	 * The Lettuce and Netty on the classpath, for {@link #describe}.
	 * @return for example "Lettuce 7.5.2.RELEASE and Netty 4.2.19.Final"
	 */
	public static String found() {
		return "Lettuce " + lettuceVersion() + " and Netty " + nettyVersion();
	}

	/**
	 * The Spring Data Redis on the classpath, for {@link #describe}.
	 * @return for example "Spring Data Redis 4.1.2"
	 */
	public static String foundSpringDataRedis() {
		String version = RedisConnectionFactory.class.getPackage().getImplementationVersion();
		return "Spring Data Redis " + ((version != null) ? version : "unknown");
	}

	private static @Nullable Class<?> load(String name) {
		try {
			return Class.forName(name, false, RedisURI.class.getClassLoader());
		}
		catch (ClassNotFoundException | LinkageError ex) {
			return null;
		}
	}

	private static Class<?> type(String name) {
		Class<?> type = load(name);
		return (type != null) ? type : Void.class;
	}

	private static void requireClass(List<String> mismatches, String name) {
		if (load(name) == null) {
			mismatches.add(simple(name) + " is missing");
		}
	}

	private static void requireMethod(List<String> mismatches, String owner, String name, @Nullable Class<?> returns,
			Class<?>... parameters) {
		Class<?> type = load(owner);
		if (type == null) {
			mismatches.add(simple(owner) + " is missing");
			return;
		}
		try {
			Method method = type.getMethod(name, parameters);
			if (returns != null && !returns.isAssignableFrom(method.getReturnType())) {
				mismatches.add(simple(owner) + "." + name + "() returns " + method.getReturnType().getSimpleName());
			}
		}
		catch (NoSuchMethodException | LinkageError ex) {
			mismatches.add(simple(owner) + "." + name + "() is missing");
		}
	}

	private static void requireDeclaredMethod(List<String> mismatches, String owner, String name,
			String... parameters) {
		Class<?> type = load(owner);
		Class<?>[] types = new Class<?>[parameters.length];
		for (int i = 0; i < parameters.length; i++) {
			types[i] = type(parameters[i]);
		}
		try {
			for (Class<?> declaring = type; declaring != null; declaring = declaring.getSuperclass()) {
				Method method = declaredMethod(declaring, name, types);
				if (method != null) {
					if (Modifier.isPrivate(method.getModifiers()) || Modifier.isFinal(method.getModifiers())) {
						mismatches.add(simple(owner) + "." + name + "(...) cannot be overridden");
					}
					return;
				}
			}
			mismatches.add(simple(owner) + "." + name + "(...) is missing");
		}
		catch (LinkageError ex) {
			mismatches.add(simple(owner) + "." + name + "(...) is missing");
		}
	}

	private static @Nullable Method declaredMethod(Class<?> type, String name, Class<?>[] parameters) {
		try {
			return type.getDeclaredMethod(name, parameters);
		}
		catch (NoSuchMethodException ex) {
			return null;
		}
	}

	private static void requireConstructor(List<String> mismatches, String owner, String... parameters) {
		Class<?> type = load(owner);
		if (type == null) {
			mismatches.add(simple(owner) + " is missing");
			return;
		}
		Class<?>[] types = new Class<?>[parameters.length];
		for (int i = 0; i < parameters.length; i++) {
			types[i] = switch (parameters[i]) {
				case "long" -> long.class;
				case "int" -> int.class;
				default -> type(parameters[i]);
			};
		}
		try {
			type.getConstructor(types);
		}
		catch (NoSuchMethodException | LinkageError ex) {
			mismatches.add("the constructor " + simple(owner) + "(" + parameters.length + " arguments) is missing");
		}
	}

	private static String simple(String name) {
		return name.substring(name.lastIndexOf('.') + 1);
	}

}
