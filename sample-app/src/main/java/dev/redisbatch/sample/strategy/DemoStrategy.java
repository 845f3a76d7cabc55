package dev.redisbatch.sample.strategy;

import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * One way of sending the same Redis work, timed side by side with the others. Every
 * strategy is a bean; the comparison runs them in their {@code @Order}:
 * <ol>
 * <li>{@code 10} {@link OneCommandPerRoundTripStrategy};</li>
 * <li>{@code 20} {@link SpringDataPipelineStrategy};</li>
 * <li>{@code 30} {@link BatchTemplateStrategy};</li>
 * <li>{@code 40} {@link TwoChunksBatchTemplateStrategy}: the same template held to a
 * window of two chunks;</li>
 * <li>{@code 50} {@link RedisBatchAnnotationStrategy}: an {@code @RedisBatch} method of
 * another bean, {@link AnnotatedDemoWriter}, around plain {@code StringRedisTemplate}
 * calls.</li>
 * </ol>
 * Implementations only touch the keys they are given, which the sample keeps under
 * {@link DemoData#KEY_PREFIX}.
 *
 * @since 0.1.0
 */
public interface DemoStrategy {

	/**
	 * The number of commands of the default warm-up.
	 */
	int WARM_UP = 10;

	/**
	 * The name, used in URLs, JSON and metrics tags: lower case, digits and dashes.
	 * @return the name
	 */
	String name();

	/**
	 * One sentence on how this strategy sends commands.
	 * @return the description
	 */
	String description();

	/**
	 * {@code SET key value PX ttl} for every key, in order, until done or the deadline
	 * has passed.
	 * @param data the keys and values
	 * @param ttl the time to live of every key
	 * @param deadline when to stop early
	 * @return how many keys were set (from the first one on)
	 */
	int set(DemoData data, Duration ttl, Deadline deadline);

	/**
	 * {@code GET key} for every key, in order, until done or the deadline has passed.
	 * @param keys the keys
	 * @param deadline when to stop early
	 * @return the values of the first keys, in key order, {@code null} where a key does
	 * not exist; fewer values than keys when the deadline stopped it
	 */
	List<@Nullable String> get(List<String> keys, Deadline deadline);

	/**
	 * An untimed run before a timed {@code SET} run, on the first keys only, so that
	 * connections are open and the code is compiled. By default, {@value #WARM_UP} SETs.
	 * @param data the keys and values of the timed run
	 * @param ttl the time to live of every key
	 */
	default void warmUpSet(DemoData data, Duration ttl) {
		set(data.slice(0, Math.min(data.size(), WARM_UP)), ttl, Deadline.none());
	}

	/**
	 * An untimed run before a timed {@code GET} run, on the first keys only. By default,
	 * {@value #WARM_UP} GETs.
	 * @param keys the keys of the timed run
	 */
	default void warmUpGet(List<String> keys) {
		get(keys.subList(0, Math.min(keys.size(), WARM_UP)), Deadline.none());
	}

}
