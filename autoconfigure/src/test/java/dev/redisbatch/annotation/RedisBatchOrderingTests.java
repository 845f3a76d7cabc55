package dev.redisbatch.annotation;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.redisbatch.autoconfigure.Boot;
import dev.redisbatch.BatchException;
import dev.redisbatch.StringBatchTemplate;
import dev.redisbatch.autoconfigure.RedisBatchAutoConfiguration;
import dev.redisbatch.testsupport.EveryLine;
import dev.redisbatch.testsupport.RedisProcess;
import dev.redisbatch.testsupport.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.resilience.annotation.EnableResilientMethods;
import org.springframework.resilience.annotation.Retryable;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.EnableAsync;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.AbstractPlatformTransactionManager;
import org.springframework.transaction.support.DefaultTransactionStatus;

import static dev.redisbatch.autoconfigure.SpringBootLineTestSupport.boot;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@code @RedisBatch} runs innermost: inside {@code @Transactional}, {@code @Retryable}
 * and {@code @Async}.
 */
@ExtendWith(RedisServerExtension.class)
@EveryLine
class RedisBatchOrderingTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(boot().redisAutoConfiguration(), RedisBatchAutoConfiguration.class))
		.withUserConfiguration(Composed.class);

	@Test
	void aFailedBatchRollsBackTheSurroundingTransaction(RedisProcess server) {
		this.contextRunner.withPropertyValues("spring.data.redis.port=" + server.port()).run((context) -> {
			server.call("LPUSH", "stock:2", "not a counter");
			RecordingTransactionManager transactions = context.getBean(RecordingTransactionManager.class);

			assertThatExceptionOfType(BatchException.class)
				.isThrownBy(() -> context.getBean(ComposedService.class).reserveInTransaction());

			// the batch completed (and failed) before the transaction ended
			assertThat(transactions.rollbacks).hasValue(1);
			assertThat(transactions.commits).hasValue(0);
		});
	}

	@Test
	void eachRetryAttemptIsABatchOfItsOwn(RedisProcess server) {
		this.contextRunner.withPropertyValues("spring.data.redis.port=" + server.port()).run((context) -> {
			ComposedService service = context.getBean(ComposedService.class);

			service.incrementWithRetry();

			// the first attempt threw before its batch was sent; only the second ran
			assertThat(service.attempts()).isEqualTo(2);
			assertThat(server.call("GET", "retried")).isEqualTo("1");
		});
	}

	@Test
	void withAsyncTheBatchIsBoundOnTheThreadThatRunsTheMethod(RedisProcess server) {
		this.contextRunner.withPropertyValues("spring.data.redis.port=" + server.port()).run((context) -> {
			CompletableFuture<Boolean> bound = context.getBean(ComposedService.class).writeAsync();

			assertThat(bound.get(30, TimeUnit.SECONDS)).isTrue();
			assertThat(server.call("GET", "async")).isEqualTo("done");
		});
	}

	@Configuration(proxyBeanMethods = false)
	@EnableTransactionManagement
	@EnableAsync
	@EnableResilientMethods
	static class Composed {

		@Bean
		RecordingTransactionManager transactionManager() {
			return new RecordingTransactionManager();
		}

		@Bean
		ComposedService composedService(StringRedisTemplate redis, StringBatchTemplate batchTemplate) {
			return new ComposedService(redis, batchTemplate);
		}

	}

	static class ComposedService {

		private final AtomicInteger attempts = new AtomicInteger();

		private final StringRedisTemplate redis;

		private final StringBatchTemplate batchTemplate;

		ComposedService(StringRedisTemplate redis, StringBatchTemplate batchTemplate) {
			this.redis = redis;
			this.batchTemplate = batchTemplate;
		}

		public int attempts() {
			return this.attempts.get();
		}

		@Transactional
		@RedisBatch
		public void reserveInTransaction() {
			this.redis.opsForValue().increment("stock:1");
			this.redis.opsForValue().increment("stock:2");
		}

		@Retryable(maxRetries = 2, delay = 0)
		@RedisBatch
		public void incrementWithRetry() {
			this.redis.opsForValue().increment("retried");
			if (this.attempts.incrementAndGet() == 1) {
				throw new IllegalStateException("transient failure");
			}
		}

		@Async
		@RedisBatch
		public CompletableFuture<Boolean> writeAsync() {
			this.redis.opsForValue().set("async", "done");
			return CompletableFuture.completedFuture(this.batchTemplate.isBound());
		}

	}

	/**
	 * A transaction manager that only counts what happens.
	 */
	@SuppressWarnings("serial")
	static class RecordingTransactionManager extends AbstractPlatformTransactionManager {

		final AtomicInteger commits = new AtomicInteger();

		final AtomicInteger rollbacks = new AtomicInteger();

		@Override
		protected Object doGetTransaction() {
			return new Object();
		}

		@Override
		protected void doBegin(Object transaction, TransactionDefinition definition) {
		}

		@Override
		protected void doCommit(DefaultTransactionStatus status) {
			this.commits.incrementAndGet();
		}

		@Override
		protected void doRollback(DefaultTransactionStatus status) {
			this.rollbacks.incrementAndGet();
		}

	}

}
