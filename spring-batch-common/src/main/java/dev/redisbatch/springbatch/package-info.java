/**
 * Spring Batch support on redis-batch, the part that is the same on every Spring Batch
 * line: the mappers and fetchers that record an item's commands, the exceptions the
 * writer throws, the settings of the writer's and the reader's builders
 * ({@link dev.redisbatch.springbatch.WriterSettings},
 * {@link dev.redisbatch.springbatch.ReaderSettings}), and the logic of the writer
 * ({@code ChunkWriter}) and of the reader ({@code ScanPageReader}). It imports nothing of
 * Spring Batch: each line's artifact ({@code redis-batch-spring-batch} for Spring Batch
 * 6, {@code redis-batch-spring-batch5} for Spring Batch 5.2) holds
 * {@code RedisBatchItemWriter} and {@code RedisBatchItemReader}, thin adapters that
 * implement that line's item interfaces on this logic, and whose builders add
 * {@code build()} to these settings.
 */
@NullMarked
package dev.redisbatch.springbatch;

import org.jspecify.annotations.NullMarked;
