package dev.redisbatch.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.aot.hint.annotation.Reflective;

/**
 * Pipelines the Redis commands a method makes. While the method runs, every command that
 * the application's {@code RedisTemplate} or {@code StringRedisTemplate} issues on the
 * calling thread is queued into one batch on a batch connection, with the same chunking,
 * isolation and outcome accounting as {@code BatchTemplate}:
 * <ul>
 * <li>a chunk is sent whenever it fills, so memory stays bounded;</li>
 * <li>when the method returns, every command is complete; if any did not succeed, the
 * caller gets one {@code BatchException} with every outcome;</li>
 * <li>if the method throws, its exception wins and the batch outcome is attached to it as
 * suppressed;</li>
 * <li>template calls return {@code null} inside the method, as in any pipeline; read with
 * {@code BatchTemplate.execute(...)}, which joins the batch and whose responses are
 * complete when it returns;</li>
 * <li>a nested annotated method joins the outer batch.</li>
 * </ul>
 * On a class, it applies to every public method. Like {@code @Transactional} it works
 * through a proxy: a call from inside the same object (self-invocation) is not batched.
 * It runs inside {@code @Async}, {@code @Retryable} and {@code @Transactional}.
 * <p>
 * In a GraalVM native image, Spring's AOT processing registers what the proxy invokes
 * through reflection for every bean class that carries the annotation.
 *
 * @since 0.1.0
 */
@Target({ ElementType.METHOD, ElementType.TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@Documented
@Reflective(RedisBatchReflectiveProcessor.class)
public @interface RedisBatch {

	/**
	 * The number of commands per chunk; {@code -1} for {@code redis.batch.chunk-size}.
	 * @return the chunk size
	 */
	int chunkSize() default -1;

	/**
	 * Whether to wrap each chunk in MULTI/EXEC ({@code false} leaves
	 * {@code redis.batch.transactional} in charge).
	 * @return whether chunks are transactions
	 */
	boolean transactional() default false;

	/**
	 * The name the batch is reported under in metrics; empty for {@code default}. May be
	 * a {@code ${...}} placeholder.
	 * @return the name
	 */
	String name() default "";

	/**
	 * The per-chunk timeout, such as {@code "10s"} or {@code "PT10S"}; empty for
	 * {@code redis.batch.timeout}. May be a {@code ${...}} placeholder.
	 * @return the timeout
	 */
	String timeout() default "";

	/**
	 * Whether each chunk runs exactly once: as one Lua script that keeps its commands'
	 * replies under a marker, so that a chunk whose connection was lost before its reply
	 * came is sent again without running twice ({@code false} leaves the template's
	 * default in charge). It cannot be combined with {@link #transactional()}.
	 * @return whether the batch is exactly-once
	 */
	boolean exactlyOnce() default false;

}
