package dev.redisbatch;

import java.nio.charset.StandardCharsets;

import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * The arguments of a command sent by name
 * ({@link Batch#command(String, CommandReply, java.util.function.Consumer)}), handed to
 * the caller's function: they go straight into the command's {@link CommandWriter}, and
 * are only valid while the function runs. The blocking option of {@code XREAD} and
 * {@code XREADGROUP} is refused here, before any I/O.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
final class NamedCommandArguments<K, V> implements CommandArguments<K, V> {

	private @Nullable CommandWriter<?> writer;

	private String name = "";

	/**
	 * Whether an option of the command could block ({@code XREAD BLOCK}): until its
	 * {@code STREAMS}, the arguments are checked.
	 */
	private boolean optionsChecked;

	private int position;

	void open(CommandWriter<?> writer, String name) {
		this.writer = writer;
		this.name = name;
		this.optionsChecked = Unbatchable.hasBlockingOption(name);
		this.position = 0;
	}

	void close() {
		this.writer = null;
	}

	boolean isOpen() {
		return this.writer != null;
	}

	@Override
	public CommandArguments<K, V> key(K key) {
		writer().key(key);
		this.position++;
		return this;
	}

	@Override
	public CommandArguments<K, V> value(V value) {
		writer().value(value);
		this.position++;
		return this;
	}

	@Override
	public CommandArguments<K, V> arg(String argument) {
		Assert.notNull(argument, "argument must not be null");
		checkOption(argument);
		writer().bytes(argument.getBytes(StandardCharsets.UTF_8));
		this.position++;
		return this;
	}

	@Override
	public CommandArguments<K, V> arg(long argument) {
		writer().number(argument);
		this.position++;
		return this;
	}

	@Override
	public CommandArguments<K, V> arg(double argument) {
		writer().score(argument);
		this.position++;
		return this;
	}

	@Override
	public CommandArguments<K, V> arg(byte[] argument) {
		Assert.notNull(argument, "argument must not be null");
		if (this.optionsChecked && argument.length <= "STREAMS".length()) {
			checkOption(new String(argument, StandardCharsets.ISO_8859_1));
		}
		writer().bytes(argument);
		this.position++;
		return this;
	}

	private void checkOption(String argument) {
		if (this.optionsChecked) {
			if ("STREAMS".equalsIgnoreCase(argument)) {
				this.optionsChecked = false;
			}
			else {
				Unbatchable.checkOption(this.name, this.position, argument);
			}
		}
	}

	private CommandWriter<?> writer() {
		CommandWriter<?> current = this.writer;
		Assert.state(current != null, "Command arguments are only valid inside the function they are handed to");
		return current;
	}

}
