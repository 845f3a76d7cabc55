package dev.redisbatch.autoconfigure;

import dev.redisbatch.BatchConnectionPool;
import dev.redisbatch.observation.BatchMetricsObservationHandler;
import dev.redisbatch.observation.BatchObservationConvention;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Micrometer observability of batches: one {@code redis.batch} observation per batch (a
 * timer with a meter registry, a span with tracing), the batch meters, and the pool
 * meters. Active when Micrometer and its registries are there; switched off with
 * {@code redis.batch.metrics.enabled=false}.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = RedisBatchAutoConfiguration.class, afterName = {
		// Spring Boot 4
		"org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration",
		"org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
		"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
		// Spring Boot 3
		"org.springframework.boot.actuate.autoconfigure.observation.ObservationAutoConfiguration",
		"org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration",
		"org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration" })
@ConditionalOnClass(ObservationRegistry.class)
@ConditionalOnBean(BatchConnectionPool.class)
@ConditionalOnBooleanProperty(name = "redis.batch.metrics.enabled", matchIfMissing = true)
public final class RedisBatchObservationAutoConfiguration {

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBean(ObservationRegistry.class)
	static class ObservationConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "redisBatchObservationCustomizer")
		BatchTemplateCustomizer redisBatchObservationCustomizer(ObservationRegistry observationRegistry,
				ObjectProvider<BatchObservationConvention> observationConvention) {
			return (template) -> {
				template.setObservationRegistry(observationRegistry);
				observationConvention.ifAvailable(template::setObservationConvention);
			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(MeterRegistry.class)
	@ConditionalOnBean(MeterRegistry.class)
	static class MetricsConfiguration {

		@Bean
		@ConditionalOnMissingBean
		BatchMetricsObservationHandler batchMetricsObservationHandler(MeterRegistry meterRegistry) {
			return new BatchMetricsObservationHandler(meterRegistry);
		}

		@Bean
		@ConditionalOnMissingBean
		BatchConnectionPoolMetrics batchConnectionPoolMetrics(BatchConnectionPool batchConnectionPool) {
			return new BatchConnectionPoolMetrics(batchConnectionPool);
		}

	}

}
