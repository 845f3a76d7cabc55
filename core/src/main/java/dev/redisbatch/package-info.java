/**
 * The redis-batch API: {@link dev.redisbatch.BatchTemplate} runs batches of Redis
 * commands as chunked pipelines on pooled connections of their own, gives every command a
 * typed {@link dev.redisbatch.Response}, and accounts for every command in
 * {@link dev.redisbatch.BatchResults}.
 * <p>
 * The engine behind it (chunking, connection leasing, outcome accounting) is
 * package-private here and knows nothing of Spring Boot.
 */
@NullMarked
package dev.redisbatch;

import org.jspecify.annotations.NullMarked;
