package dev.redisbatch;

import java.io.Serializable;
import java.util.LinkedHashSet;
import java.util.Set;

import dev.redisbatch.internals.NioSockets;
import dev.redisbatch.wire.Wire;
import org.apache.commons.pool2.impl.BaseObjectPoolConfig;
import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;
import org.springframework.data.redis.connection.DecoratedRedisConnection;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.StringRedisConnection;

/**
 * What the engine creates through reflection or JDK proxies, for a GraalVM native image.
 * Registered in {@code META-INF/spring/aot.factories}, so Spring's AOT processing applies
 * it to every application that has redis-batch on its classpath.
 * <ul>
 * <li>The {@code RedisConnection} that {@code RedisTemplate} code gets inside a bound
 * batch ({@code @RedisBatch}) is a JDK proxy of exactly {@link RedisConnection}.</li>
 * <li>{@code RedisTemplate} hands a {@code RedisCallback} that connection wrapped in a
 * close-suppressing JDK proxy of every interface of its class: for a JDK proxy class,
 * {@code RedisConnection} and the {@link Serializable} of
 * {@code java.lang.reflect.Proxy}. The wrapper calls the recording proxy with
 * {@code Method.invoke}.</li>
 * <li>That proxy hands every call it does not answer itself to Spring Data Redis's
 * {@code LettuceConnection} with {@code Method.invoke}: any public method of
 * {@code RedisConnection} or of the interfaces it extends, whichever the template
 * calls.</li>
 * <li>Each pool of batch connections is a commons-pool2 {@code GenericObjectPool}, which
 * loads its eviction policy by class name and instantiates it through its public
 * constructor.</li>
 * </ul>
 * Spring Data Redis 4.1 registers the first proxy and most {@code RedisConnection}
 * methods for its own use, but neither the callback wrapper's proxy, nor the
 * {@code RedisCommandsProvider} methods ({@code stringCommands()}, {@code keyCommands()},
 * ...) that every template operation calls, nor the eviction policy. These hints do not
 * rely on what it registers.
 *
 * @since 0.1.0
 */
class BatchRuntimeHints implements RuntimeHintsRegistrar {

	/**
	 * The interfaces of the recording connection proxy, in the order it declares them.
	 */
	static final Class<?>[] RECORDING_CONNECTION_INTERFACES = { RedisConnection.class };

	/**
	 * The interfaces of the proxy {@code RedisTemplate} wraps the recording connection in
	 * for a {@code RedisCallback}.
	 */
	static final Class<?>[] CALLBACK_CONNECTION_INTERFACES = { RedisConnection.class, Serializable.class };

	/**
	 * The interfaces of the proxy a {@code StringRedisTemplate} of Spring Data Redis 3.5
	 * wraps the recording connection in for a {@code RedisCallback}: it decorates it as a
	 * {@code DefaultStringRedisConnection} first.
	 */
	static final Class<?>[] STRING_CALLBACK_CONNECTION_INTERFACES = { StringRedisConnection.class,
			DecoratedRedisConnection.class };

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		hints.proxies().registerJdkProxy(RECORDING_CONNECTION_INTERFACES);
		hints.proxies().registerJdkProxy(CALLBACK_CONNECTION_INTERFACES);
		hints.proxies().registerJdkProxy(STRING_CALLBACK_CONNECTION_INTERFACES);
		for (Class<?> type : interfaceHierarchy(CALLBACK_CONNECTION_INTERFACES,
				STRING_CALLBACK_CONNECTION_INTERFACES)) {
			hints.reflection().registerType(type, MemberCategory.INVOKE_PUBLIC_METHODS);
		}
		// Netty looks up a handler's public methods reflectively (to skip those marked
		// @Skip) when the batch's handler joins a connection's pipeline.
		for (Class<?> type = Wire.class; type != Object.class; type = type.getSuperclass()) {
			hints.reflection().registerType(type, MemberCategory.INVOKE_PUBLIC_METHODS);
		}
		NioSockets.registerHints(hints.reflection());
		hints.reflection()
			.registerType(TypeReference.of(BaseObjectPoolConfig.DEFAULT_EVICTION_POLICY_CLASS_NAME),
					MemberCategory.INVOKE_PUBLIC_CONSTRUCTORS);
	}

	/**
	 * The given interfaces and every interface they extend: the classes that declare the
	 * methods a proxy of them can pass to its handler.
	 */
	static Set<Class<?>> interfaceHierarchy(Class<?>[]... interfaces) {
		Set<Class<?>> all = new LinkedHashSet<>();
		for (Class<?>[] list : interfaces) {
			for (Class<?> type : list) {
				collect(type, all);
			}
		}
		return all;
	}

	private static void collect(Class<?> type, Set<Class<?>> all) {
		if (all.add(type)) {
			for (Class<?> parent : type.getInterfaces()) {
				collect(parent, all);
			}
		}
	}

}
