package dev.redisbatch.annotation;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import dev.redisbatch.BatchOptions;
import dev.redisbatch.BatchTemplate;
import dev.redisbatch.BoundBatch;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.AopUtils;
import org.springframework.core.MethodClassKey;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.format.datetime.standard.DurationFormatterUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.StringUtils;
import org.springframework.util.StringValueResolver;

/**
 * Runs a {@link RedisBatch @RedisBatch} method inside a {@link BoundBatch}, or lets it
 * join the batch already bound to the thread.
 *
 * @since 0.1.0
 */
final class RedisBatchInterceptor implements MethodInterceptor {

	private final Supplier<BatchTemplate<?, ?>> template;

	private final Supplier<List<RedisConnectionFactory>> connectionFactories;

	private final Map<MethodClassKey, BatchOptions> options = new ConcurrentHashMap<>();

	private @Nullable StringValueResolver valueResolver;

	RedisBatchInterceptor(Supplier<BatchTemplate<?, ?>> template,
			Supplier<List<RedisConnectionFactory>> connectionFactories) {
		this.template = template;
		this.connectionFactories = connectionFactories;
	}

	void setValueResolver(StringValueResolver valueResolver) {
		this.valueResolver = valueResolver;
	}

	@Override
	public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
		BatchTemplate<?, ?> batchTemplate = this.template.get();
		if (batchTemplate.isBound()) {
			// REQUIRED propagation: a nested @RedisBatch joins the outer batch
			return invocation.proceed();
		}
		Class<?> targetClass = (invocation.getThis() != null) ? AopUtils.getTargetClass(invocation.getThis())
				: invocation.getMethod().getDeclaringClass();
		BatchOptions batchOptions = optionsFor(invocation.getMethod(), targetClass);
		try (BoundBatch batch = batchTemplate.bind(batchOptions, this.connectionFactories.get())) {
			Object result;
			try {
				result = invocation.proceed();
			}
			catch (Throwable ex) {
				throw batch.fail(ex);
			}
			batch.complete();
			return result;
		}
	}

	/**
	 * The options of a method: its own {@code @RedisBatch}, or its class's.
	 * @throws IllegalStateException if an attribute is invalid
	 */
	BatchOptions optionsFor(Method method, Class<?> targetClass) {
		return this.options.computeIfAbsent(new MethodClassKey(method, targetClass),
				(key) -> parse(method, targetClass));
	}

	/**
	 * Check every {@code @RedisBatch} on a class and its methods, so that invalid
	 * attributes fail at startup.
	 * @throws IllegalStateException if an attribute is invalid
	 */
	void validate(Class<?> targetClass) {
		RedisBatch onClass = AnnotatedElementUtils.findMergedAnnotation(targetClass, RedisBatch.class);
		if (onClass != null) {
			toOptions(onClass, targetClass.getName());
		}
		ReflectionUtils.doWithMethods(targetClass, (method) -> {
			RedisBatch onMethod = AnnotatedElementUtils.findMergedAnnotation(method, RedisBatch.class);
			if (onMethod != null) {
				toOptions(onMethod, ClassUtils.getQualifiedMethodName(method, targetClass));
			}
		}, ReflectionUtils.USER_DECLARED_METHODS);
	}

	private BatchOptions parse(Method method, Class<?> targetClass) {
		Method specific = ClassUtils.getMostSpecificMethod(method, targetClass);
		RedisBatch annotation = AnnotatedElementUtils.findMergedAnnotation(specific, RedisBatch.class);
		if (annotation == null) {
			annotation = AnnotatedElementUtils.findMergedAnnotation(targetClass, RedisBatch.class);
		}
		if (annotation == null) {
			return BatchOptions.defaults();
		}
		return toOptions(annotation, ClassUtils.getQualifiedMethodName(specific, targetClass));
	}

	private BatchOptions toOptions(RedisBatch annotation, String where) {
		try {
			return toOptions(annotation);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalStateException("Invalid @RedisBatch on " + where + ": " + ex.getMessage(), ex);
		}
	}

	private BatchOptions toOptions(RedisBatch annotation) {
		BatchOptions.Builder builder = BatchOptions.builder();
		if (annotation.chunkSize() != -1) {
			builder.chunkSize(annotation.chunkSize());
		}
		if (annotation.transactional()) {
			builder.transactional(true);
		}
		if (annotation.exactlyOnce()) {
			builder.exactlyOnce(true);
		}
		String name = resolve(annotation.name());
		if (StringUtils.hasText(name)) {
			builder.name(name);
		}
		String timeout = resolve(annotation.timeout());
		if (StringUtils.hasText(timeout)) {
			Duration duration;
			try {
				duration = DurationFormatterUtils.detectAndParse(timeout);
			}
			catch (RuntimeException ex) {
				throw new IllegalArgumentException("timeout '" + timeout + "' is not a duration such as 10s or PT10S",
						ex);
			}
			builder.timeout(duration);
		}
		return builder.build();
	}

	private String resolve(String value) {
		if (this.valueResolver == null || !StringUtils.hasText(value)) {
			return value;
		}
		String resolved = this.valueResolver.resolveStringValue(value);
		return (resolved != null) ? resolved : value;
	}

}
