/**
 * Spring Boot auto-configuration for redis-batch: the batch connection pool built from
 * Spring Boot's Redis connection details, the {@code stringBatchTemplate} and
 * {@code batchTemplate} beans, and the {@code redis.batch.*} properties. The only package
 * that imports Spring Boot.
 */
@NullMarked
package dev.redisbatch.autoconfigure;

import org.jspecify.annotations.NullMarked;
