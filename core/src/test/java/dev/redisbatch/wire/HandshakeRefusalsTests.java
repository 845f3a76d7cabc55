package dev.redisbatch.wire;

import java.nio.charset.StandardCharsets;

import dev.redisbatch.internals.LettuceErrors;
import dev.redisbatch.testsupport.EveryLine;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisConnectionException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The first line of each error reply to a handshake is kept, until a reply is not an
 * error, and names the failure when Lettuce reports the connection as closed instead.
 */
@EveryLine
class HandshakeRefusalsTests {

	private final HandshakeRefusals refusals = new HandshakeRefusals();

	@Test
	void anErrorReplyIsKeptToItsFirstLineAndAnotherReplyEndsTheHandshake() {
		long start = System.nanoTime();

		assertThat(this.refusals.note(bytes("-ERR unknown command 'HELLO'\r\n"))).isTrue();
		assertThat(this.refusals.note(bytes("-WRONGPASS invalid username-password pair\r\n+OK\r\n"))).isTrue();

		assertThat(this.refusals.since(start)).isEqualTo("WRONGPASS invalid username-password pair");
		assertThat(this.refusals.since(System.nanoTime())).isNull();
		assertThat(this.refusals.note(bytes("%7\r\n"))).isFalse();
		assertThat(this.refusals.note(bytes("+OK\r\n"))).isFalse();
	}

	@Test
	void aLineThatHasNotEndedIsKeptAsFarAsItArrivedAndAtMost200Bytes() {
		long start = System.nanoTime();

		this.refusals.note(bytes("-NOPERM this user has no per"));
		assertThat(this.refusals.since(start)).isEqualTo("NOPERM this user has no per");
		this.refusals.note(bytes("-" + "E".repeat(1_000)));
		assertThat(this.refusals.since(start)).hasSize(200);
	}

	@Test
	void onlyAReportedCloseAfterARefusalBecomesTheRefusal() {
		long start = System.nanoTime();
		RuntimeException closed = new RedisConnectionException("Unable to connect",
				new RedisConnectionException(LettuceErrors.CLOSED_IN_HANDSHAKE));
		RuntimeException refused = new RedisConnectionException("Unable to connect",
				new java.net.ConnectException("Connection refused"));

		assertThat(this.refusals.explain(closed, start)).isSameAs(closed);
		this.refusals.note(bytes("-WRONGPASS invalid username-password pair\r\n"));

		RuntimeException explained = this.refusals.explain(closed, start);
		assertThat(explained).isInstanceOf(RedisCommandExecutionException.class)
			.hasMessage("WRONGPASS invalid username-password pair")
			.hasSuppressedException(closed);
		assertThat(this.refusals.explain(refused, start)).isSameAs(refused);
		assertThat(this.refusals.explain(closed, System.nanoTime())).isSameAs(closed);
	}

	private static ByteBuf bytes(String text) {
		return Unpooled.copiedBuffer(text, StandardCharsets.UTF_8);
	}

}
