package dev.redisbatch.internals;

import java.lang.reflect.Field;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionProvider;
import org.springframework.util.ReflectionUtils;

/**
 * What redis-batch takes from Spring Data Redis beyond its documented API: the active
 * configuration of a {@link LettuceConnectionFactory}, and its pipelined
 * {@link LettuceConnection} on a connection provider of redis-batch's.
 */
public final class SpringDataRedisInternals {

	/**
	 * The factory's active configuration. {@code LettuceConnectionFactory} has public
	 * getters for its Sentinel, Cluster and socket configurations, but none that tells a
	 * standalone configuration from a static master/replica one, and
	 * {@code getStandaloneConfiguration()} returns a default {@code localhost:6379} when
	 * the factory was created from a {@code RedisConfiguration}.
	 */
	private static final @Nullable Field CONFIGURATION = ReflectionUtils.findField(LettuceConnectionFactory.class,
			"configuration", RedisConfiguration.class);

	private SpringDataRedisInternals() {
	}

	/**
	 * Whether the factory's active configuration can be read.
	 * @return whether its field was found
	 */
	public static boolean canReadConfiguration() {
		return CONFIGURATION != null;
	}

	/**
	 * The factory's active configuration.
	 * @param factory the factory
	 * @return its configuration, or {@code null} when it has none
	 * @throws IllegalStateException when the installed Spring Data Redis keeps it
	 * elsewhere
	 */
	public static @Nullable Object configurationOf(LettuceConnectionFactory factory) {
		Field field = CONFIGURATION;
		if (field == null) {
			throw new IllegalStateException("this Spring Data Redis keeps the active configuration of a "
					+ "LettuceConnectionFactory where redis-batch does not look for it");
		}
		ReflectionUtils.makeAccessible(field);
		return ReflectionUtils.getField(field, factory);
	}

	/**
	 * Spring Data Redis's {@link LettuceConnection}, pipelining, on the dedicated
	 * connection the provider gives: it turns every {@code RedisConnection} call of a
	 * template into Lettuce commands and returns {@code null}, as pipelined connections
	 * do.
	 * @param provider gives the connection
	 * @param timeoutMillis the command timeout the connection is told
	 * @return the pipelining connection
	 */
	public static LettuceConnection pipelinedConnection(LettuceConnectionProvider provider, long timeoutMillis) {
		LettuceConnection connection = new LettuceConnection(null, provider, timeoutMillis, 0);
		connection.openPipeline();
		return connection;
	}

}
