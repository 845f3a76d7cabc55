package dev.redisbatch.autoconfigure;

import org.jspecify.annotations.Nullable;

/**
 * What a Spring Boot line's module supplies to the code both lines share: the line's
 * generation, the oldest Spring Boot of it that redis-batch supports, and how its Redis
 * connection details become the settings of the batch connection pool. Each line's module
 * implements it once, as {@code BootLine}, and the shared code reaches it through
 * {@link #current()}: a module without it does not compile.
 *
 * @param <D> the line's Redis connection details ({@code DataRedisConnectionDetails} on
 * Spring Boot 4, {@code RedisConnectionDetails} on Spring Boot 3.5)
 * @param <P> the line's Redis properties ({@code DataRedisProperties} on Spring Boot 4,
 * {@code RedisProperties} on Spring Boot 3.5)
 */
interface SpringBootLine<D, P> {

	/**
	 * The line this module is built for.
	 */
	static SpringBootLine<?, ?> current() {
		return BootLine.INSTANCE;
	}

	/**
	 * The major version of Spring Boot this module is built for, as the marker
	 * {@code META-INF/redis-batch/spring-boot-line.properties} in its jar names it.
	 */
	int generation();

	/**
	 * The oldest Spring Boot of the line that this module supports, as
	 * {@code major.minor}.
	 */
	String oldest();

	/**
	 * The settings of the batch connection pool.
	 * @param connectionDetails Spring Boot's Redis connection details
	 * @param redisProperties Spring Boot's {@code spring.data.redis.*} properties, when
	 * the application has them
	 */
	RedisConnectionSettings settings(D connectionDetails, @Nullable P redisProperties);

}
