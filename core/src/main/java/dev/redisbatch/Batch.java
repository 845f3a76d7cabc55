package dev.redisbatch;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.script.RedisScript;

/**
 * Records the commands of one batch. Each method is named after its Redis command, queues
 * the command, and returns a typed {@link Response} that is complete once the batch has
 * run.
 * <p>
 * Keys and values are serialized with the template's serializers when the command is
 * recorded. A {@code null} key or value is rejected at once with an
 * {@link IllegalArgumentException}; a value the serializer cannot handle makes that one
 * command {@link Outcome#FAILED} and is never sent.
 * <p>
 * A {@code Batch} is only valid inside its {@link BatchCallback} and on the calling
 * thread.
 *
 * @param <K> the key type
 * @param <V> the value type
 * @since 0.1.0
 */
public interface Batch<K, V> {

	/**
	 * The same batch, where every command recorded through the returned view is marked
	 * idempotent: running it twice has the same effect as running it once (SET, DEL,
	 * EXPIRE, HSET with absolute values; not INCR or LPUSH). With
	 * {@link BatchOptions.Builder#retry(int, java.time.Duration) retry} on, such a
	 * command whose outcome is {@link Outcome#UNKNOWN} is sent again; otherwise the mark
	 * has no effect.
	 * @return a view of this batch that marks its commands idempotent
	 */
	Batch<K, V> idempotent();

	/**
	 * Whether the batch has stopped sending: a connection was lost, a chunk passed its
	 * deadline, or the thread was interrupted (on a cluster: it stopped sending to every
	 * master). Recording never throws because of such a failure: from then on each
	 * command is {@link Outcome#NOT_SENT} at once, without being serialized or sent, and
	 * {@code execute} throws the {@link BatchException} when the callback returns. A
	 * callback that reads its input from a cursor or a stream can ask this to stop early
	 * on purpose.
	 * @return whether commands recorded now are not sent
	 */
	boolean isStopped();

	/**
	 * Send the commands recorded so far now, without waiting for their replies, instead
	 * of when their chunk fills or the callback returns. For a callback whose input
	 * arrives slowly (a message consumer, a stream, a cursor over a slow source): call it
	 * when it is about to wait for more, so that what it has is not held back. It waits
	 * only while the in-flight window is full, and costs a write per server with commands
	 * waiting: never call it after every command.
	 */
	void flush();

	// strings and keys

	/**
	 * {@code GET key}.
	 * @param key the key
	 * @return the value, {@code null} when the key does not exist
	 */
	Response<@Nullable V> get(K key);

	/**
	 * {@code SET key value}.
	 * @param key the key
	 * @param value the value
	 * @return {@code true} once set
	 */
	Response<Boolean> set(K key, V value);

	/**
	 * {@code SET key value PX ttl}.
	 * @param key the key
	 * @param value the value
	 * @param ttl the time to live, at least one millisecond
	 * @return {@code true} once set
	 */
	Response<Boolean> set(K key, V value, Duration ttl);

	/**
	 * {@code SET key value NX}.
	 * @param key the key
	 * @param value the value
	 * @return {@code true} if the key was set, {@code false} if it already existed
	 */
	Response<Boolean> setIfAbsent(K key, V value);

	/**
	 * {@code SET key value NX PX ttl}.
	 * @param key the key
	 * @param value the value
	 * @param ttl the time to live, at least one millisecond
	 * @return {@code true} if the key was set, {@code false} if it already existed
	 */
	Response<Boolean> setIfAbsent(K key, V value, Duration ttl);

	/**
	 * {@code INCR key}.
	 * @param key the key
	 * @return the value after the increment
	 */
	Response<Long> incr(K key);

	/**
	 * {@code INCRBY key delta}.
	 * @param key the key
	 * @param delta the amount to add
	 * @return the value after the increment
	 */
	Response<Long> incrBy(K key, long delta);

	/**
	 * {@code DECR key}.
	 * @param key the key
	 * @return the value after the decrement
	 */
	Response<Long> decr(K key);

	/**
	 * {@code DECRBY key delta}.
	 * @param key the key
	 * @param delta the amount to subtract
	 * @return the value after the decrement
	 */
	Response<Long> decrBy(K key, long delta);

	/**
	 * {@code DEL key}.
	 * @param key the key
	 * @return the number of keys removed (0 or 1)
	 */
	Response<Long> del(K key);

	/**
	 * {@code EXISTS key}.
	 * @param key the key
	 * @return whether the key exists
	 */
	Response<Boolean> exists(K key);

	/**
	 * {@code PEXPIRE key ttl}.
	 * @param key the key
	 * @param ttl the time to live, at least one millisecond
	 * @return {@code true} if the timeout was set, {@code false} if the key does not
	 * exist
	 */
	Response<Boolean> expire(K key, Duration ttl);

	/**
	 * {@code TTL key}.
	 * @param key the key
	 * @return the remaining time to live in seconds, {@code -1} if the key has no expiry,
	 * {@code -2} if it does not exist
	 */
	Response<Long> ttl(K key);

	// hashes

	/**
	 * {@code HGET key field}.
	 * @param <HK> the hash field type
	 * @param <HV> the hash value type
	 * @param key the key
	 * @param field the field
	 * @return the value of the field, {@code null} if absent
	 */
	<HK, HV> Response<@Nullable HV> hget(K key, HK field);

	/**
	 * {@code HSET key field value}.
	 * @param <HK> the hash field type
	 * @param <HV> the hash value type
	 * @param key the key
	 * @param field the field
	 * @param value the value
	 * @return {@code true} if the field is new, {@code false} if it was updated
	 */
	<HK, HV> Response<Boolean> hset(K key, HK field, HV value);

	/**
	 * {@code HGETALL key}.
	 * @param <HK> the hash field type
	 * @param <HV> the hash value type
	 * @param key the key
	 * @return the fields and values (empty when the key does not exist)
	 */
	<HK, HV> Response<Map<HK, HV>> hgetAll(K key);

	/**
	 * {@code HDEL key field [field ...]}.
	 * @param <HK> the hash field type
	 * @param key the key
	 * @param fields the fields, at least one
	 * @return the number of fields removed
	 */
	@SuppressWarnings("unchecked")
	<HK> Response<Long> hdel(K key, HK... fields);

	/**
	 * {@code HINCRBY key field delta}.
	 * @param <HK> the hash field type
	 * @param key the key
	 * @param field the field
	 * @param delta the amount to add
	 * @return the value after the increment
	 */
	<HK> Response<Long> hincrBy(K key, HK field, long delta);

	// sets

	/**
	 * {@code SADD key member [member ...]}.
	 * @param key the key
	 * @param members the members, at least one
	 * @return the number of members added
	 */
	@SuppressWarnings("unchecked")
	Response<Long> sadd(K key, V... members);

	/**
	 * {@code SREM key member [member ...]}.
	 * @param key the key
	 * @param members the members, at least one
	 * @return the number of members removed
	 */
	@SuppressWarnings("unchecked")
	Response<Long> srem(K key, V... members);

	/**
	 * {@code SMEMBERS key}.
	 * @param key the key
	 * @return the members (empty when the key does not exist)
	 */
	Response<Set<V>> smembers(K key);

	/**
	 * {@code SISMEMBER key member}.
	 * @param key the key
	 * @param member the member
	 * @return whether the member is in the set
	 */
	Response<Boolean> sismember(K key, V member);

	// lists

	/**
	 * {@code LPUSH key element [element ...]}.
	 * @param key the key
	 * @param elements the elements, at least one
	 * @return the length of the list afterwards
	 */
	@SuppressWarnings("unchecked")
	Response<Long> lpush(K key, V... elements);

	/**
	 * {@code RPUSH key element [element ...]}.
	 * @param key the key
	 * @param elements the elements, at least one
	 * @return the length of the list afterwards
	 */
	@SuppressWarnings("unchecked")
	Response<Long> rpush(K key, V... elements);

	/**
	 * {@code LRANGE key start stop}.
	 * @param key the key
	 * @param start the first index (0-based, negative counts from the end)
	 * @param stop the last index, inclusive
	 * @return the elements
	 */
	Response<List<V>> lrange(K key, long start, long stop);

	// sorted sets

	/**
	 * {@code ZADD key score member}.
	 * @param key the key
	 * @param score the score
	 * @param member the member
	 * @return {@code true} if the member is new, {@code false} if its score was updated
	 */
	Response<Boolean> zadd(K key, double score, V member);

	/**
	 * {@code ZSCORE key member}.
	 * @param key the key
	 * @param member the member
	 * @return the score, {@code null} if the member is absent
	 */
	Response<@Nullable Double> zscore(K key, V member);

	/**
	 * {@code ZINCRBY key delta member}.
	 * @param key the key
	 * @param delta the amount to add to the score
	 * @param member the member
	 * @return the new score
	 */
	Response<Double> zincrBy(K key, double delta, V member);

	/**
	 * {@code ZRANGE key start stop}.
	 * @param key the key
	 * @param start the first rank (0-based, negative counts from the end)
	 * @param stop the last rank, inclusive
	 * @return the members in score order
	 */
	Response<List<V>> zrange(K key, long start, long stop);

	// scripts

	/**
	 * {@code EVAL} of a Spring {@link RedisScript}. Arguments are serialized with the
	 * value serializer, and the result is converted to the script's result type as
	 * {@code RedisTemplate.execute(RedisScript, ...)} does.
	 * @param <T> the result type
	 * @param script the script
	 * @param keys the keys the script touches
	 * @param args the arguments
	 * @return the script's result
	 */
	<T> Response<@Nullable T> eval(RedisScript<T> script, List<K> keys, Object... args);

	// any command

	/**
	 * Any Redis command with one key and text arguments: streams, HyperLogLog, geo,
	 * {@code BITFIELD}, module commands, commands newer than this library. The key is
	 * serialized with the key serializer and routes the command on a cluster; the
	 * arguments follow it as UTF-8.
	 *
	 * <pre class="code">
	 * Response&lt;Long&gt; added = batch.command("PFADD", CommandReply.integer(), "visitors:today", "alice", "bob");
	 * </pre>
	 * @param <T> the type of the response's value
	 * @param name the command name, such as {@code "PFADD"} or {@code "JSON.SET"}; a
	 * subcommand is the first argument
	 * @param reply the reply type
	 * @param key the key, sent right after the name
	 * @param arguments the arguments after the key
	 * @return the reply
	 * @throws IllegalArgumentException for a {@code null} or blank name, a name that
	 * cannot run in a batch (blocking commands, {@code MULTI}, {@code SELECT},
	 * subscriptions), or a {@code null} argument
	 * @see #command(String, CommandReply, Consumer)
	 */
	<T extends @Nullable Object> Response<T> command(String name, CommandReply<T> reply, K key, String... arguments);

	/**
	 * Any Redis command, with its arguments in wire order, and its keys marked so that it
	 * is routed, and checked, like the named commands: on a cluster it goes to the master
	 * of its keys' slot (keys of different slots make it {@link Outcome#FAILED}, not
	 * sent), and a command without keys is refused, because no master would be the right
	 * one.
	 *
	 * <pre class="code">
	 * Response&lt;String&gt; id = batch.command("XADD", CommandReply.string(),
	 *     (args) -&gt; args.key("events").arg("*").arg("type").arg("order").arg("payload").value(order));
	 * </pre>
	 * @param <T> the type of the response's value
	 * @param name the command name, such as {@code "XADD"} or {@code "JSON.SET"}; a
	 * subcommand is the first argument
	 * @param reply the reply type
	 * @param arguments adds the arguments, in order
	 * @return the reply
	 * @throws IllegalArgumentException for a {@code null} or blank name, a name that
	 * cannot run in a batch (blocking commands or options, {@code MULTI}, {@code SELECT},
	 * subscriptions), a {@code null} argument, or on a cluster a command without keys
	 */
	<T extends @Nullable Object> Response<T> command(String name, CommandReply<T> reply,
			Consumer<CommandArguments<K, V>> arguments);

}
