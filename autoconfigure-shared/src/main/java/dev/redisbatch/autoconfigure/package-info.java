/**
 * Spring Boot auto-configuration for redis-batch: the batch connection pool built from
 * Spring Boot's Redis connection details, the {@code stringBatchTemplate} and
 * {@code batchTemplate} beans, and the {@code redis.batch.*} properties. The only package
 * that imports Spring Boot.
 * <p>
 * Each Spring Boot line has a module of its own ({@code redis-batch-spring-boot} for
 * Spring Boot 4, {@code redis-batch-spring-boot3-autoconfigure} for Spring Boot 3.5), and
 * each compiles this package's shared classes against its own Spring Boot, with the few
 * classes that name that line's Spring Boot classes. Each line supplies:
 * <ul>
 * <li>{@code BootLine}, the implementation of {@code SpringBootLine}: its generation, its
 * oldest supported Spring Boot, and the pool's settings from its Redis connection
 * details;</li>
 * <li>{@code RedisBatchAutoConfiguration}, the pool and the templates, after the line's
 * Redis auto-configuration ({@code RedisBatchObservationAutoConfiguration} runs after
 * it);</li>
 * <li>{@code AutoBatchingAutoConfiguration}, auto-batching, before the line's Redis
 * auto-configuration (it imports {@code AutoBatchingConfiguration});</li>
 * <li>the resource {@code META-INF/redis-batch/spring-boot-line.properties}, which names
 * its generation ({@code generation=4}).</li>
 * </ul>
 * The shared {@code META-INF/spring/...AutoConfiguration.imports} names both
 * auto-configurations. The shared tests check the rest on each line: that the imports
 * file names both, and that the marker names {@code SpringBootLine#generation()}. Their
 * own contract is the test interface {@code SpringBootLineTestSupport}, which each line's
 * test class {@code Boot} implements.
 */
@NullMarked
package dev.redisbatch.autoconfigure;

import org.jspecify.annotations.NullMarked;
