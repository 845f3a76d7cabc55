package dev.redisbatch.annotation;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import dev.redisbatch.BatchTemplate;

import dev.redisbatch.internals.Compatibility;
import org.springframework.aop.Pointcut;
import org.springframework.aop.framework.autoproxy.AbstractBeanFactoryAwareAdvisingPostProcessor;
import org.springframework.aop.support.ComposablePointcut;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;
import org.springframework.context.EmbeddedValueResolverAware;
import org.springframework.core.Ordered;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.util.StringValueResolver;

/**
 * Applies {@link RedisBatch @RedisBatch} to beans through a proxy, the way Spring applies
 * {@code @Retryable} and {@code @Async}.
 * <p>
 * The batch advice is added after any advice a bean already has, so it runs innermost:
 * inside {@code @Async} (the batch is bound on the thread that runs the method), inside
 * {@code @Retryable} (each attempt is a batch of its own) and inside
 * {@code @Transactional} (a failed batch reaches the transaction interceptor, which rolls
 * back). Invalid attributes stop the application at startup.
 *
 * @since 0.1.0
 */
@SuppressWarnings("serial")
public class RedisBatchAnnotationBeanPostProcessor extends AbstractBeanFactoryAwareAdvisingPostProcessor
		implements EmbeddedValueResolverAware {

	/**
	 * The bean name the post-processor is registered under.
	 */
	public static final String BEAN_NAME = "dev.redisbatch.annotation.internalRedisBatchAnnotationProcessor";

	private final RedisBatchInterceptor interceptor;

	/**
	 * Create the post-processor.
	 * @param template the template whose pool and defaults batches use (looked up when
	 * the first annotated method runs)
	 * @param connectionFactories the connection factories whose template commands are
	 * batched
	 */
	public RedisBatchAnnotationBeanPostProcessor(Supplier<BatchTemplate<?, ?>> template,
			Supplier<List<RedisConnectionFactory>> connectionFactories) {
		setBeforeExistingAdvisors(false);
		setOrder(Ordered.LOWEST_PRECEDENCE);
		this.interceptor = new RedisBatchInterceptor(template, connectionFactories);
		Pointcut onClass = new AnnotationMatchingPointcut(RedisBatch.class, true);
		Pointcut onMethod = new AnnotationMatchingPointcut(null, RedisBatch.class, true);
		this.advisor = new DefaultPointcutAdvisor(new ComposablePointcut(onClass).union(onMethod), this.interceptor);
	}

	@Override
	public void setEmbeddedValueResolver(StringValueResolver resolver) {
		this.interceptor.setValueResolver(resolver);
	}

	/**
	 * What recording relies on in Lettuce and is not there: a seam for tests that break
	 * an assumption on purpose.
	 */
	private Supplier<List<String>> lettuceChecks = Compatibility::recordingMismatches;

	/**
	 * What recording relies on in Spring Data Redis and is not there: a seam for tests.
	 */
	private Supplier<List<String>> springDataRedisChecks = Compatibility::springDataRedisRecordingMismatches;

	@Override
	protected boolean isEligible(Class<?> targetClass) {
		boolean eligible = super.isEligible(targetClass);
		if (eligible) {
			List<String> lettuce = this.lettuceChecks.get();
			List<String> springDataRedis = this.springDataRedisChecks.get();
			if (!lettuce.isEmpty() || !springDataRedis.isEmpty()) {
				throw new IllegalStateException(recordingMismatch(targetClass, lettuce, springDataRedis));
			}
			this.interceptor.validate(targetClass);
		}
		return eligible;
	}

	/**
	 * The sentence that says which library recording does not match, and what to do.
	 */
	private static String recordingMismatch(Class<?> targetClass, List<String> lettuce, List<String> springDataRedis) {
		String what = "@RedisBatch on " + targetClass.getName()
				+ ", which records RedisTemplate commands on connections of its own,";
		String off = "set redis.batch.annotations.enabled=false (without Spring Boot, leave out @EnableRedisBatch) "
				+ "and run the commands through a BatchTemplate";
		if (lettuce.isEmpty()) {
			return Compatibility.describe(what, Compatibility.TESTED_SPRING_DATA_REDIS,
					Compatibility.foundSpringDataRedis(), springDataRedis,
					"it has no portable equivalent; use a Spring Data Redis of the tested range, or " + off);
		}
		if (springDataRedis.isEmpty()) {
			return Compatibility.describe(what, lettuce,
					"it has no portable equivalent; use a Lettuce of the tested range, or " + off);
		}
		List<String> both = new ArrayList<>(lettuce);
		both.addAll(springDataRedis);
		return Compatibility.describe(what, Compatibility.TESTED + " and " + Compatibility.TESTED_SPRING_DATA_REDIS,
				Compatibility.found() + " and " + Compatibility.foundSpringDataRedis(), both,
				"it has no portable equivalent; use a Lettuce and a Spring Data Redis of the tested ranges, or " + off);
	}

	void recordingChecks(Supplier<List<String>> lettuce, Supplier<List<String>> springDataRedis) {
		this.lettuceChecks = lettuce;
		this.springDataRedisChecks = springDataRedis;
	}

}
