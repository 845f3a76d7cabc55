package dev.redisbatch;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import dev.redisbatch.internals.NioSockets;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RedisServerExtension;
import dev.redisbatch.wire.Wire;
import io.lettuce.core.RedisURI;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.nio.AbstractNioChannel;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.beans.factory.aot.AotServices;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.RedisConnectionUtils;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link BatchRuntimeHints}: what the engine creates through JDK proxies and reflection
 * is registered for a native image, checked against what it really creates at run time.
 */
@ExtendWith(RedisServerExtension.class)
// onMethod(..).invoke(): the predicate Spring Framework 6.2 has too
@SuppressWarnings("deprecation")
class BatchRuntimeHintsTests {

	private final RuntimeHints hints = registered();

	@Test
	void theConnectionsRedisTemplateCodeGetsInABoundBatchAreRegisteredProxies(RedisProcess server) {
		List<Class<?>> seen = new ArrayList<>();
		LettuceConnectionFactory connectionFactory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(server.host(), server.port()));
		connectionFactory.afterPropertiesSet();
		connectionFactory.start();
		try (BatchConnectionPool pool = BatchConnectionPool.builder(RedisURI.create(server.uri())).build()) {
			StringBatchTemplate batchTemplate = new StringBatchTemplate(pool);
			StringRedisTemplate redisTemplate = new StringRedisTemplate(connectionFactory);
			try (BoundBatch batch = batchTemplate.bind(BatchOptions.defaults(), List.of(connectionFactory))) {
				RedisConnection bound = RedisConnectionUtils.getConnection(connectionFactory);
				seen.add(bound.getClass());
				RedisConnectionUtils.releaseConnection(bound, connectionFactory);
				redisTemplate.execute((RedisCallback<Object>) (connection) -> {
					seen.add(connection.getClass());
					// a deprecated default method and a commands-provider method: both
					// reach LettuceConnection through Method.invoke
					connection.set(bytes("hints:default"), bytes("recorded"));
					connection.stringCommands().set(bytes("hints:provider"), bytes("recorded"));
					return null;
				});
				batch.complete();
			}
		}
		finally {
			connectionFactory.destroy();
		}
		assertThat(server.call("GET", "hints:default")).isEqualTo("recorded");
		assertThat(server.call("GET", "hints:provider")).isEqualTo("recorded");
		assertThat(seen).hasSize(2).allSatisfy((type) -> {
			assertThat(Proxy.isProxyClass(type)).as("%s is a JDK proxy", type).isTrue();
			assertThat(RuntimeHintsPredicates.proxies().forInterfaces(type.getInterfaces())).accepts(this.hints);
		});
		assertThat(seen.get(0).getInterfaces()).containsExactly(BatchRuntimeHints.RECORDING_CONNECTION_INTERFACES);
		// Spring Data Redis 4 wraps the connection as it is, 3.5 decorated as a String
		// one
		assertThat(seen.get(1).getInterfaces()).satisfiesAnyOf(
				(interfaces) -> assertThat(interfaces)
					.containsExactly(BatchRuntimeHints.CALLBACK_CONNECTION_INTERFACES),
				(interfaces) -> assertThat(interfaces)
					.containsExactly(BatchRuntimeHints.STRING_CALLBACK_CONNECTION_INTERFACES));
	}

	@Test
	void everyMethodEitherProxyCanPassOnMayBeInvokedReflectively() {
		// A JDK proxy passes its handler the Method of the interface that declares it
		// (RedisConnection, DefaultedRedisConnection, RedisStringCommands, ...). The
		// callback wrapper invokes it on the recording proxy, and the recording proxy
		// invokes it on a LettuceConnection.
		List<Method> methods = new ArrayList<>();
		for (Class<?> type : BatchRuntimeHints.CALLBACK_CONNECTION_INTERFACES) {
			methods.addAll(List.of(type.getMethods()));
		}
		for (Class<?> type : BatchRuntimeHints.STRING_CALLBACK_CONNECTION_INTERFACES) {
			methods.addAll(List.of(type.getMethods()));
		}
		assertThat(methods).hasSizeGreaterThan(100)
			.allSatisfy((method) -> assertThat(RuntimeHintsPredicates.reflection().onMethod(method).invoke())
				.as(method.toString())
				.accepts(this.hints));
	}

	@Test
	void theEvictionPolicyThatCommonsPoolLoadsByNameCanBeInstantiated() throws Exception {
		GenericObjectPoolConfig<Object> config = new GenericObjectPoolConfig<>();
		// No policy instance by default: every pool loads the named class and calls its
		// public constructor through reflection.
		assertThat(config.getEvictionPolicy()).isNull();
		Class<?> policy = ClassUtils.forName(config.getEvictionPolicyClassName(), getClass().getClassLoader());
		assertThat(RuntimeHintsPredicates.reflection().onConstructor(policy.getConstructor()).invoke())
			.accepts(this.hints);
	}

	@Test
	void theMethodsNettyLooksUpOnTheBatchsHandlerMayBeInvokedReflectively() throws Exception {
		// Netty's ChannelHandlerMask asks the handler's class for each handler method by
		// name, to skip the ones marked @Skip
		for (String name : new String[] { "channelRead", "write" }) {
			Method method = (name.equals("write"))
					? Wire.class.getMethod(name, ChannelHandlerContext.class, Object.class, ChannelPromise.class)
					: Wire.class.getMethod(name, ChannelHandlerContext.class, Object.class);
			assertThat(RuntimeHintsPredicates.reflection().onMethod(method).invoke()).accepts(this.hints);
		}
		Method inactive = Wire.class.getMethod("channelInactive", ChannelHandlerContext.class);
		assertThat(RuntimeHintsPredicates.reflection().onMethod(inactive).invoke()).accepts(this.hints);
	}

	@Test
	void theSocketBehindAPlaintextChannelMayBeTakenReflectively() throws Exception {
		Method javaChannel = AbstractNioChannel.class.getDeclaredMethod(NioSockets.JAVA_CHANNEL);
		assertThat(RuntimeHintsPredicates.reflection().onMethod(javaChannel).invoke()).accepts(this.hints);
	}

	@Test
	void theHintsAreFoundBySpringsAotProcessing() {
		assertThat(AotServices.factories().load(RuntimeHintsRegistrar.class))
			.anySatisfy((registrar) -> assertThat(registrar).isInstanceOf(BatchRuntimeHints.class));
	}

	private static RuntimeHints registered() {
		RuntimeHints hints = new RuntimeHints();
		new BatchRuntimeHints().registerHints(hints, BatchRuntimeHintsTests.class.getClassLoader());
		return hints;
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
