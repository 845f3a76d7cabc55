package dev.redisbatch;

/**
 * The arguments of a command sent with
 * {@link Batch#command(String, CommandReply, java.util.function.Consumer)}, in the order
 * they go on the wire. Keys are marked with {@link #key(Object)}: they are serialized
 * with the template's key serializer and route the command on a Redis Cluster. Values go
 * through the value serializer; everything else is sent as given.
 *
 * <pre class="code">
 * // XADD events MAXLEN ~ 10000 * type order payload &lt;value&gt;
 * batch.command("XADD", CommandReply.string(), (args) -&gt; args.key("events")
 *     .arg("MAXLEN").arg("~").arg(10_000).arg("*")
 *     .arg("type").arg("order").arg("payload").value(order));
 * </pre>
 *
 * Only valid inside the function it is handed to.
 *
 * @param <K> the key type
 * @param <V> the value type
 * @since 0.1.0
 */
public interface CommandArguments<K, V> {

	/**
	 * A key, serialized with the key serializer. On a cluster the command goes to the
	 * master of the keys' slot; keys of one command must share a slot.
	 * @param key the key; not {@code null}
	 * @return these arguments
	 */
	CommandArguments<K, V> key(K key);

	/**
	 * A value, serialized with the value serializer.
	 * @param value the value; not {@code null}
	 * @return these arguments
	 */
	CommandArguments<K, V> value(V value);

	/**
	 * A keyword or other text argument, sent as UTF-8.
	 * @param argument the argument; not {@code null}
	 * @return these arguments
	 */
	CommandArguments<K, V> arg(String argument);

	/**
	 * An integer argument, sent as its decimal digits.
	 * @param argument the argument
	 * @return these arguments
	 */
	CommandArguments<K, V> arg(long argument);

	/**
	 * A floating point argument (a score, a coordinate), sent as Redis reads it back;
	 * {@code NaN} is refused.
	 * @param argument the argument
	 * @return these arguments
	 */
	CommandArguments<K, V> arg(double argument);

	/**
	 * An argument sent byte for byte.
	 * @param argument the argument; not {@code null}
	 * @return these arguments
	 */
	CommandArguments<K, V> arg(byte[] argument);

}
