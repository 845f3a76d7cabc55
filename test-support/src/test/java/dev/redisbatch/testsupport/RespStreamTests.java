package dev.redisbatch.testsupport;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link RespStream} finds the end of every message however the bytes are cut.
 */
class RespStreamTests {

	@Test
	void findsEachMessageOfARequestStreamFedByteByByte() {
		String set = "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$5\r\nv\r\nxx\r\n";
		String get = "*2\r\n$3\r\nGET\r\n$1\r\nk\r\n";
		List<Long> lengths = new ArrayList<>();
		RespStream stream = new RespStream();

		for (byte b : (set + get).getBytes(StandardCharsets.US_ASCII)) {
			stream.feed(new byte[] { b }, 1, lengths::add);
		}

		assertThat(lengths).containsExactly((long) set.length(), (long) get.length());
	}

	@Test
	void findsTheEndOfNestedRepliesNilsAndResp3Aggregates() {
		String[] replies = { "+OK\r\n", "$-1\r\n", "*0\r\n", "*2\r\n*1\r\n:1\r\n$2\r\nab\r\n", "%1\r\n+a\r\n:2\r\n",
				"-ERR no\r\n", "_\r\n" };
		List<Long> lengths = new ArrayList<>();
		RespStream stream = new RespStream();
		byte[] all = String.join("", replies).getBytes(StandardCharsets.US_ASCII);

		stream.feed(all, all.length, lengths::add);

		assertThat(lengths)
			.containsExactly(Arrays.stream(replies).map((reply) -> (long) reply.length()).toArray(Long[]::new));
	}

	@Test
	void keepsABulkStringThatContainsCrLfInOnePiece() {
		String reply = "$6\r\na\r\nb\r\n\r\n";
		List<Long> lengths = new ArrayList<>();
		RespStream stream = new RespStream();
		byte[] bytes = reply.getBytes(StandardCharsets.US_ASCII);

		stream.feed(bytes, 5, lengths::add);
		assertThat(lengths).isEmpty();
		stream.feed(Arrays.copyOfRange(bytes, 5, bytes.length), bytes.length - 5, lengths::add);

		assertThat(lengths).containsExactly((long) reply.length());
	}

}
