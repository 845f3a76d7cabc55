/**
 * Spring Batch support on redis-batch, for Spring Batch 5.2:
 * {@link dev.redisbatch.springbatch.RedisBatchItemWriter} writes each chunk as one
 * pipelined batch and maps every command's outcome onto Spring Batch's retry and skip
 * without running a command twice;
 * {@link dev.redisbatch.springbatch.RedisBatchItemReader} reads keys by {@code SCAN} on
 * every master and their values by pipelined reads, and is restartable. Both implement
 * Spring Batch 5's item interfaces on the logic of
 * {@code redis-batch-spring-batch-common} (the same package), where the mappers, fetchers
 * and exceptions live too.
 * <p>
 * There is no auto-configuration, on purpose, as in Spring Boot's own batch support: Boot
 * configures the job infrastructure (the job repository, the operator, running jobs at
 * startup), never item readers or writers, because each belongs to one step of one job,
 * with its own keys, mapper and name, and several of them live side by side. Builders are
 * the API; the {@code BatchTemplate} they need is the bean the redis-batch starter
 * already provides.
 */
@NullMarked
package dev.redisbatch.springbatch;

import org.jspecify.annotations.NullMarked;
