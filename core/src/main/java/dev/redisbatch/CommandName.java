package dev.redisbatch;

import java.nio.charset.StandardCharsets;

import io.lettuce.core.protocol.ProtocolKeyword;

/**
 * A command known by its name only: one sent with
 * {@link Batch#command(String, CommandReply, java.util.function.Consumer)}, or one that
 * never reached the wire.
 */
final class CommandName implements ProtocolKeyword {

	private final String name;

	private final byte[] bytes;

	CommandName(String name) {
		this.name = name;
		this.bytes = name.getBytes(StandardCharsets.UTF_8);
	}

	@Override
	public byte[] getBytes() {
		return this.bytes;
	}

	@Override
	public String toString() {
		return this.name;
	}

}
