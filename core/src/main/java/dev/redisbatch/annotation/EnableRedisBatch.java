package dev.redisbatch.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.context.annotation.Import;
import org.springframework.core.Ordered;

/**
 * Turns on {@link RedisBatch @RedisBatch} in a Spring application without Spring Boot
 * (with Boot, the auto-configuration does it). Put it on a {@code @Configuration} class:
 *
 * <pre class="code">
 * &#064;Configuration
 * &#064;EnableRedisBatch
 * public class RedisConfig {
 *
 *     &#064;Bean(destroyMethod = "close")
 *     BatchConnectionPool batchConnectionPool(LettuceConnectionFactory connectionFactory) {
 *         return BatchConnectionPool.builder(connectionFactory).build();
 *     }
 *
 *     &#064;Bean
 *     StringBatchTemplate stringBatchTemplate(BatchConnectionPool batchConnectionPool) {
 *         return new StringBatchTemplate(batchConnectionPool);
 *     }
 *
 * }</pre>
 *
 * It registers a {@link RedisBatchAnnotationBeanPostProcessor} under
 * {@link RedisBatchAnnotationBeanPostProcessor#BEAN_NAME}, unless a bean of that name
 * exists already (so a Spring Boot application that also carries this annotation still
 * has exactly one). Annotated methods then batch the commands of the templates on every
 * {@code RedisConnectionFactory} bean, on the pool and with the defaults of the context's
 * {@code BatchTemplate}: the only one, else the {@code @Primary} one, else the only
 * {@code StringBatchTemplate}. The template is looked up when the first annotated method
 * runs, and several without a way to choose fail that call with a message that names
 * them.
 *
 * @since 0.1.0
 * @see RedisBatch
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Import(RedisBatchConfiguration.class)
public @interface EnableRedisBatch {

	/**
	 * Whether to proxy annotated beans by subclassing (CGLIB) even when they implement
	 * interfaces. By default, a bean that implements interfaces gets an interface-based
	 * proxy, as with {@code @EnableAsync}.
	 * @return whether to proxy the target class
	 */
	boolean proxyTargetClass() default false;

	/**
	 * The order of the post-processor that applies {@code @RedisBatch}. The default,
	 * {@link Ordered#LOWEST_PRECEDENCE}, lets it add its advice to proxies that other
	 * post-processors made ({@code @Async}, {@code @Retryable}, {@code @Transactional})
	 * rather than proxy twice; the batch advice runs innermost either way.
	 * @return the order
	 */
	int order() default Ordered.LOWEST_PRECEDENCE;

}
