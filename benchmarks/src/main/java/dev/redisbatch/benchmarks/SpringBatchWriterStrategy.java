package dev.redisbatch.benchmarks;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

import dev.redisbatch.BatchOptions;
import dev.redisbatch.StringBatchTemplate;
import dev.redisbatch.springbatch.RedisBatchItemWriter;
import dev.redisbatch.springbatch.RedisItemMappers;
import org.jspecify.annotations.Nullable;

import org.springframework.batch.infrastructure.item.Chunk;
import org.springframework.batch.infrastructure.item.ExecutionContext;
import org.springframework.batch.infrastructure.item.ItemStream;
import org.springframework.batch.infrastructure.item.ItemWriter;
import org.springframework.batch.infrastructure.item.redis.RedisItemWriter;
import org.springframework.batch.infrastructure.item.redis.builder.RedisItemWriterBuilder;
import org.springframework.batch.infrastructure.support.transaction.ResourcelessTransactionManager;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A Spring Batch item writer, called as Spring Batch 6's chunk-oriented step calls it.
 * The workload's keys and values are the items ({@link Item}), written in chunks of
 * {@value #CHUNK} items: each chunk is one {@code write(Chunk)} in a transaction of its
 * own, on Spring Batch's {@link ResourcelessTransactionManager} (the step's default
 * without a database), in which a writer that is an {@link ItemStream} is also given the
 * step's {@link ExecutionContext} ({@code update}) before the commit. Such a writer is
 * opened on that context when the strategy is created, and closed with it. No job
 * repository is involved: what the step would save is not measured.
 * <p>
 * Every item is one {@code SET key value} with no TTL, for every writer: Spring Batch's
 * {@link RedisItemWriter} writes {@code opsForValue().set(key, item)} and cannot set one.
 * So {@link #set} writes no TTL, and the GET workload and generated keys do not apply.
 */
final class SpringBatchWriterStrategy implements Strategy {

	/**
	 * The items of one {@code write(Chunk)}: the step's chunk size.
	 */
	static final int CHUNK = 1000;

	private final ConfigurableApplicationContext context;

	private final ItemWriter<Item> writer;

	private final @Nullable ItemStream stream;

	private final ExecutionContext executionContext = new ExecutionContext();

	private final TransactionTemplate transaction = new TransactionTemplate(new ResourcelessTransactionManager());

	private @Nullable Workload itemsOf;

	private List<Item> items = List.of();

	private SpringBatchWriterStrategy(ConfigurableApplicationContext context, ItemWriter<Item> writer,
			@Nullable ItemStream stream) {
		this.context = context;
		this.writer = writer;
		this.stream = stream;
		if (stream != null) {
			stream.open(this.executionContext);
		}
	}

	/**
	 * Spring Batch's own {@link RedisItemWriter}, built with its builder on a
	 * {@code RedisTemplate} over the {@code RedisConnectionFactory} that Spring Boot
	 * auto-configures: each item is written through the template on its own.
	 * @param endpoint where to connect
	 * @return the strategy
	 */
	static SpringBatchWriterStrategy springBatch(Endpoint endpoint) {
		ConfigurableApplicationContext context = BootRedis.start(endpoint, List.of());
		RedisTemplate<String, Item> template = new RedisTemplate<>();
		template.setConnectionFactory(context.getBean(RedisConnectionFactory.class));
		template.setKeySerializer(RedisSerializer.string());
		template.setValueSerializer(new ItemValueSerializer());
		template.afterPropertiesSet();
		RedisItemWriter<String, Item> writer = new RedisItemWriterBuilder<String, Item>().redisTemplate(template)
			.itemKeyMapper(Item::key)
			.build();
		return new SpringBatchWriterStrategy(context, writer, null);
	}

	/**
	 * redis-batch's {@link RedisBatchItemWriter} on the auto-configured
	 * {@code stringBatchTemplate}, with the {@code value} mapper and no TTL, and the
	 * writer's default options.
	 * @param endpoint where to connect
	 * @return the strategy
	 */
	static SpringBatchWriterStrategy redisBatch(Endpoint endpoint) {
		return redisBatch(endpoint, null);
	}

	/**
	 * The same writer, each chunk's batch exactly-once: the builder's
	 * {@code options(BatchOptions.builder().exactlyOnce(true).build())}.
	 * @param endpoint where to connect
	 * @return the strategy
	 */
	static SpringBatchWriterStrategy redisBatchExactlyOnce(Endpoint endpoint) {
		return redisBatch(endpoint, BatchOptions.builder().exactlyOnce(true).build());
	}

	private static SpringBatchWriterStrategy redisBatch(Endpoint endpoint, @Nullable BatchOptions options) {
		ConfigurableApplicationContext context = BootRedis.start(endpoint, List.of());
		RedisBatchItemWriter.Builder<String, String, Item> builder = RedisBatchItemWriter
			.builder(context.getBean(StringBatchTemplate.class), RedisItemMappers.value(Item::key, Item::value, null))
			.name("benchmark-items");
		if (options != null) {
			builder.options(options);
		}
		RedisBatchItemWriter<String, String, Item> writer = builder.build();
		return new SpringBatchWriterStrategy(context, writer, writer);
	}

	/**
	 * Write every key and value of the workload as an item, in chunks of {@value #CHUNK}:
	 * {@code SET key value}, no TTL.
	 * @param workload the data
	 * @return how many items were written (a write that does not succeed throws)
	 */
	@Override
	public long set(Workload workload) {
		List<Item> all = items(workload);
		for (int from = 0; from < all.size(); from += CHUNK) {
			Chunk<Item> chunk = new Chunk<>(all.subList(from, Math.min(all.size(), from + CHUNK)));
			this.transaction.executeWithoutResult((status) -> write(chunk));
		}
		return all.size();
	}

	private void write(Chunk<Item> chunk) {
		try {
			this.writer.write(chunk);
		}
		catch (RuntimeException ex) {
			throw ex;
		}
		catch (Exception ex) {
			throw new IllegalStateException("The writer failed", ex);
		}
		if (this.stream != null) {
			this.stream.update(this.executionContext);
		}
	}

	/**
	 * The items of a workload, built once per workload, so that no write measures
	 * building its input.
	 */
	private List<Item> items(Workload workload) {
		if (this.itemsOf != workload) {
			List<Item> items = new ArrayList<>(workload.size());
			for (int i = 0; i < workload.size(); i++) {
				items.add(new Item(workload.keys()[i], workload.values()[i]));
			}
			this.items = items;
			this.itemsOf = workload;
		}
		return this.items;
	}

	@Override
	public long get(Workload workload) {
		throw new UnsupportedOperationException("An item writer only writes");
	}

	@Override
	public void setGenerated(int count, IntFunction<String> keys, String value) {
		throw new UnsupportedOperationException("An item writer writes the items it is given");
	}

	@Override
	public void close() {
		if (this.stream != null) {
			this.stream.close();
		}
		this.context.close();
	}

	/**
	 * An item of the step: a record with its key and its value.
	 *
	 * @param key the key
	 * @param value the value
	 */
	record Item(String key, String value) {

	}

	/**
	 * The value serializer of {@link RedisItemWriter}'s template: the item's value as
	 * UTF-8, as the {@code value} mapper of {@link RedisBatchItemWriter} writes it with
	 * the string template.
	 */
	private static final class ItemValueSerializer implements RedisSerializer<Item> {

		@Override
		public byte[] serialize(@Nullable Item item) {
			if (item == null) {
				throw new IllegalArgumentException("No item");
			}
			return item.value().getBytes(StandardCharsets.UTF_8);
		}

		@Override
		public @Nullable Item deserialize(byte @Nullable [] bytes) {
			throw new UnsupportedOperationException("The writer's template only writes");
		}

	}

}
