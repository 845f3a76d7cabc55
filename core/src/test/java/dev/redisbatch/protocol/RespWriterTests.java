package dev.redisbatch.protocol;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

import dev.redisbatch.testsupport.EveryLine;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandKeyword;
import io.lettuce.core.protocol.CommandType;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * {@link RespWriter}: commands byte for byte as Redis reads them, with no server.
 */
@EveryLine
class RespWriterTests {

	@Test
	void writesAnArrayHeader() {
		assertThat(written((buffer) -> RespWriter.array(buffer, 3))).isEqualTo(ascii("*3\r\n"));
	}

	@Test
	void writesAnEmptyArrayHeader() {
		assertThat(written((buffer) -> RespWriter.array(buffer, 0))).isEqualTo(ascii("*0\r\n"));
	}

	@ParameterizedTest
	@CsvSource({ "1, *1", "9, *9", "10, *10", "62, *62", "63, *63", "64, *64", "65, *65", "99, *99", "100, *100",
			"1000000, *1000000", "2147483647, *2147483647" })
	void writesArrayHeadersBelowAtAndAboveTheCachedOnes(int elements, String header) {
		assertThat(written((buffer) -> RespWriter.array(buffer, elements))).isEqualTo(ascii(header + "\r\n"));
	}

	@Test
	void writesABulkString() {
		assertThat(written((buffer) -> RespWriter.bulk(buffer, ascii("hello")))).isEqualTo(ascii("$5\r\nhello\r\n"));
	}

	@Test
	void writesAnEmptyBulkString() {
		assertThat(written((buffer) -> RespWriter.bulk(buffer, new byte[0]))).isEqualTo(ascii("$0\r\n\r\n"));
	}

	@Test
	void writesEveryByteValueUnchanged() {
		byte[] everyByte = new byte[256];
		for (int i = 0; i < 256; i++) {
			everyByte[i] = (byte) i;
		}

		byte[] written = written((buffer) -> RespWriter.bulk(buffer, everyByte));

		assertThat(written).isEqualTo(concat(ascii("$256\r\n"), everyByte, ascii("\r\n")));
	}

	@Test
	void writesCrAndLfInsideAValueAsPlainBytesCountedInTheLength() {
		assertThat(written((buffer) -> RespWriter.bulk(buffer, ascii("a\r\nb")))).isEqualTo(ascii("$4\r\na\r\nb\r\n"));
	}

	@Test
	void writesAValueThatLooksLikeRespAsPlainBytes() {
		assertThat(written((buffer) -> RespWriter.bulk(buffer, ascii("$3\r\n*1\r\n"))))
			.isEqualTo(ascii("$8\r\n$3\r\n*1\r\n\r\n"));
	}

	@ParameterizedTest
	@ValueSource(ints = { 9, 10, 99, 100, 1022, 1023, 1024, 1025, 65536 })
	void writesBulkStringsBelowAtAndAboveTheCachedHeaders(int length) {
		byte[] value = new byte[length];
		Arrays.fill(value, (byte) 'x');

		byte[] written = written((buffer) -> RespWriter.bulk(buffer, value));

		assertThat(written).isEqualTo(concat(ascii("$" + length + "\r\n"), value, ascii("\r\n")));
	}

	@Test
	void writesACommandNameAsABulkString() {
		assertThat(written((buffer) -> RespWriter.bulk(buffer, CommandType.GET))).isEqualTo(ascii("$3\r\nGET\r\n"));
	}

	@Test
	void writesAKeywordAsABulkString() {
		assertThat(written((buffer) -> RespWriter.bulk(buffer, CommandKeyword.WITHSCORES)))
			.isEqualTo(ascii("$10\r\nWITHSCORES\r\n"));
	}

	@Test
	void writesACommandAsAnArrayOfBulkStrings() {
		byte[] written = written((buffer) -> {
			RespWriter.array(buffer, 3);
			RespWriter.bulk(buffer, CommandType.SET);
			RespWriter.bulk(buffer, ascii("key"));
			RespWriter.bulk(buffer, ascii("value"));
		});

		assertThat(written).isEqualTo(ascii("*3\r\n$3\r\nSET\r\n$3\r\nkey\r\n$5\r\nvalue\r\n"));
	}

	@Test
	void writesTheSameBytesAsLettuceEncodesTheSameCommand() {
		byte[] value = new byte[2000];
		for (int i = 0; i < value.length; i++) {
			value[i] = (byte) (i * 7);
		}
		// LPOS key element COUNT n: a keyword that Lettuce 6.8 and 7 both have
		CommandArgs<byte[], byte[]> args = new CommandArgs<>(ByteArrayCodec.INSTANCE).addKey(ascii("key"))
			.addValue(value)
			.add(CommandKeyword.COUNT)
			.add(-1234567890123L);
		Command<byte[], byte[], String> command = new Command<>(CommandType.LPOS,
				new StatusOutput<>(ByteArrayCodec.INSTANCE), args);

		byte[] ours = written((buffer) -> {
			RespWriter.array(buffer, 5);
			RespWriter.bulk(buffer, CommandType.LPOS);
			RespWriter.bulk(buffer, ascii("key"));
			RespWriter.bulk(buffer, value);
			RespWriter.bulk(buffer, CommandKeyword.COUNT);
			RespWriter.bulk(buffer, -1234567890123L);
		});

		assertThat(ours).isEqualTo(written(command::encode));
	}

	@ParameterizedTest
	@CsvSource({ "0, 1, 0", "7, 1, 7", "9, 1, 9", "10, 2, 10", "42, 2, 42", "100, 3, 100", "-1, 2, -1", "-9, 2, -9",
			"-10, 3, -10", "-42, 3, -42", "999999999999999999, 18, 999999999999999999",
			"1000000000000000000, 19, 1000000000000000000", "9223372036854775807, 19, 9223372036854775807",
			"-9223372036854775807, 20, -9223372036854775807", "-9223372036854775808, 20, -9223372036854775808" })
	void writesALongAsABulkStringOfItsDigits(long number, int length, String digits) {
		assertThat(written((buffer) -> RespWriter.bulk(buffer, number)))
			.isEqualTo(ascii("$" + length + "\r\n" + digits + "\r\n"));
	}

	@Test
	void writesEveryPowerOfTenAndItsNeighboursAsJavaSpellsThem() {
		for (long number : powersOfTenAndTheirNeighbours()) {
			String digits = Long.toString(number);
			assertThat(written((buffer) -> RespWriter.bulk(buffer, number))).as("%d", number)
				.isEqualTo(ascii("$" + digits.length() + "\r\n" + digits + "\r\n"));
		}
	}

	@ParameterizedTest
	@CsvSource({ "0, 1", "1, 1", "9, 1", "10, 2", "99, 2", "100, 3", "-1, 2", "-9, 2", "-10, 3", "-99, 3", "-100, 4",
			"999999999999999999, 18", "1000000000000000000, 19", "9223372036854775807, 19", "-9223372036854775807, 20",
			"-9223372036854775808, 20" })
	void countsTheCharactersOfANumberSignIncluded(long value, int length) {
		assertThat(RespWriter.length(value)).isEqualTo(length);
	}

	@Test
	void countsTheCharactersOfEveryPowerOfTenAndItsNeighboursAsJavaSpellsThem() {
		for (long number : powersOfTenAndTheirNeighbours()) {
			assertThat(RespWriter.length(number)).as("%d", number).isEqualTo(Long.toString(number).length());
		}
	}

	@ParameterizedTest
	@CsvSource({ "0.0, 0", "1.0, 1", "-3.0, -3", "10000000.0, 10000000", "999999999999999.0, 999999999999999",
			"-999999999999999.0, -999999999999999" })
	void spellsWholeNumbersWithoutAFraction(double number, String expected) {
		assertThat(RespWriter.doubleBytes(number)).isEqualTo(ascii(expected));
	}

	@Test
	void spellsNegativeZeroAsZero() {
		assertThat(RespWriter.doubleBytes(-0.0)).isEqualTo(ascii("0"));
	}

	@ParameterizedTest
	@CsvSource({ "0.5, 0.5", "0.1, 0.1", "-2.5, -2.5", "123456.789, 123456.789", "0.001, 0.001",
			"3.141592653589793, 3.141592653589793" })
	void spellsFractionsInTheirShortestExactForm(double number, String expected) {
		assertThat(RespWriter.doubleBytes(number)).isEqualTo(ascii(expected));
	}

	@ParameterizedTest
	@CsvSource({ "1.0E15, 1.0E15", "-1.0E15, -1.0E15", "1.0E20, 1.0E20",
			"1.7976931348623157E308, 1.7976931348623157E308", "-1.7976931348623157E308, -1.7976931348623157E308",
			"9.223372036854775807E18, 9.223372036854776E18", "1.0E-4, 1.0E-4", "1.0E-300, 1.0E-300",
			"4.9E-324, 4.9E-324", "-4.9E-324, -4.9E-324" })
	void spellsVeryLargeAndVerySmallMagnitudesWithAnExponent(double number, String expected) {
		assertThat(RespWriter.doubleBytes(number)).isEqualTo(ascii(expected));
	}

	@Test
	void spellsPositiveInfinityAsPlusInf() {
		assertThat(RespWriter.doubleBytes(Double.POSITIVE_INFINITY)).isEqualTo(ascii("+inf"));
	}

	@Test
	void spellsNegativeInfinityAsMinusInf() {
		assertThat(RespWriter.doubleBytes(Double.NEGATIVE_INFINITY)).isEqualTo(ascii("-inf"));
	}

	@Test
	void refusesNaN() {
		assertThatIllegalArgumentException().isThrownBy(() -> RespWriter.doubleBytes(Double.NaN))
			.withMessage("NaN is not a number Redis accepts");
	}

	@Test
	void refusesNaNBeforeWritingAnything() {
		ByteBuf buffer = Unpooled.buffer();
		try {
			assertThatIllegalArgumentException().isThrownBy(() -> RespWriter.bulk(buffer, Double.NaN));
			assertThat(buffer.writerIndex()).isZero();
		}
		finally {
			buffer.release();
		}
	}

	@Test
	void writesADoubleAsABulkStringOfItsSpelling() {
		assertThat(written((buffer) -> RespWriter.bulk(buffer, 0.5))).isEqualTo(ascii("$3\r\n0.5\r\n"));
	}

	@Test
	void writesAnInfiniteDoubleAsABulkString() {
		assertThat(written((buffer) -> RespWriter.bulk(buffer, Double.NEGATIVE_INFINITY)))
			.isEqualTo(ascii("$4\r\n-inf\r\n"));
	}

	@Test
	void findsTheLargestBulkStringOfACommand() {
		ByteBuf buffer = buffer((target) -> {
			RespWriter.array(target, 4);
			RespWriter.bulk(target, CommandType.HSET);
			RespWriter.bulk(target, ascii("key"));
			RespWriter.bulk(target, new byte[1500]);
			RespWriter.bulk(target, ascii("value"));
		});
		try {
			assertThat(RespWriter.largestBulk(buffer, 0, buffer.writerIndex())).isEqualTo(1500);
		}
		finally {
			buffer.release();
		}
	}

	@Test
	void findsTheLargestBulkStringWhenItIsTheLast() {
		ByteBuf buffer = buffer((target) -> {
			RespWriter.array(target, 3);
			RespWriter.bulk(target, CommandType.SET);
			RespWriter.bulk(target, ascii("key"));
			RespWriter.bulk(target, ascii("a longer value"));
		});
		try {
			assertThat(RespWriter.largestBulk(buffer, 0, buffer.writerIndex())).isEqualTo(14);
		}
		finally {
			buffer.release();
		}
	}

	@Test
	void findsTheLargestBulkStringPastValuesThatContainCrLfAndDollars() {
		ByteBuf buffer = buffer((target) -> {
			RespWriter.array(target, 4);
			RespWriter.bulk(target, CommandType.SET);
			RespWriter.bulk(target, ascii("\r\n$99999\r\n"));
			RespWriter.bulk(target, new byte[0]);
			RespWriter.bulk(target, ascii("twelve bytes"));
		});
		try {
			assertThat(RespWriter.largestBulk(buffer, 0, buffer.writerIndex())).isEqualTo(12);
		}
		finally {
			buffer.release();
		}
	}

	@Test
	void findsTheLargestBulkStringOfACommandWithManyArguments() {
		ByteBuf buffer = buffer((target) -> {
			RespWriter.array(target, 101);
			RespWriter.bulk(target, CommandType.MGET);
			for (int i = 0; i < 100; i++) {
				RespWriter.bulk(target, new byte[i]);
			}
		});
		try {
			assertThat(RespWriter.largestBulk(buffer, 0, buffer.writerIndex())).isEqualTo(99);
		}
		finally {
			buffer.release();
		}
	}

	@Test
	void findsTheLargestBulkStringOfOnlyTheCommandBetweenTheGivenPositions() {
		ByteBuf buffer = Unpooled.buffer();
		try {
			RespWriter.array(buffer, 3);
			RespWriter.bulk(buffer, CommandType.SET);
			RespWriter.bulk(buffer, ascii("first"));
			RespWriter.bulk(buffer, new byte[2048]);
			int second = buffer.writerIndex();
			RespWriter.array(buffer, 2);
			RespWriter.bulk(buffer, CommandType.GET);
			RespWriter.bulk(buffer, ascii("second-key"));
			int third = buffer.writerIndex();
			RespWriter.array(buffer, 2);
			RespWriter.bulk(buffer, CommandType.GET);
			RespWriter.bulk(buffer, new byte[4096]);

			assertThat(RespWriter.largestBulk(buffer, second, third)).isEqualTo(10);
		}
		finally {
			buffer.release();
		}
	}

	@Test
	void findsNoBulkStringInAnEmptyCommand() {
		ByteBuf buffer = buffer((target) -> RespWriter.array(target, 0));
		try {
			assertThat(RespWriter.largestBulk(buffer, 0, buffer.writerIndex())).isZero();
		}
		finally {
			buffer.release();
		}
	}

	@Test
	void readsBackTheBulkStringsItWrote() {
		byte[] everyByte = new byte[256];
		for (int i = 0; i < 256; i++) {
			everyByte[i] = (byte) i;
		}
		byte[] large = new byte[1025];
		Arrays.fill(large, (byte) '\n');
		ByteBuf buffer = buffer((target) -> {
			RespWriter.bulk(target, ascii("key"));
			RespWriter.bulk(target, new byte[0]);
			RespWriter.bulk(target, everyByte);
			RespWriter.bulk(target, ascii("a\r\nb"));
			RespWriter.bulk(target, large);
		});
		try {
			assertThat(RespWriter.bulks(buffer)).containsExactly(ascii("key"), new byte[0], everyByte, ascii("a\r\nb"),
					large);
		}
		finally {
			buffer.release();
		}
	}

	@Test
	void readsBackNumbersAsTheirDigits() {
		ByteBuf buffer = buffer((target) -> {
			RespWriter.bulk(target, Long.MIN_VALUE);
			RespWriter.bulk(target, 0L);
			RespWriter.bulk(target, -0.0);
			RespWriter.bulk(target, 2.5);
			RespWriter.bulk(target, Double.POSITIVE_INFINITY);
		});
		try {
			assertThat(RespWriter.bulks(buffer)).containsExactly(ascii("-9223372036854775808"), ascii("0"), ascii("0"),
					ascii("2.5"), ascii("+inf"));
		}
		finally {
			buffer.release();
		}
	}

	@Test
	void readsBackWhatLettuceEncodesAsArguments() {
		CommandArgs<byte[], byte[]> args = new CommandArgs<>(ByteArrayCodec.INSTANCE).addKey(ascii("key"))
			.add(12)
			.add(CommandKeyword.WITHSCORES)
			.addValue(new byte[0]);
		ByteBuf buffer = buffer(args::encode);
		try {
			assertThat(RespWriter.bulks(buffer)).containsExactly(ascii("key"), ascii("12"), ascii("WITHSCORES"),
					new byte[0]);
		}
		finally {
			buffer.release();
		}
	}

	@Test
	void readsBulkStringsFromTheReaderIndex() {
		ByteBuf buffer = Unpooled.buffer();
		RespWriter.bulk(buffer, ascii("skipped"));
		buffer.readerIndex(buffer.writerIndex());
		RespWriter.bulk(buffer, ascii("read"));
		try {
			assertThat(RespWriter.bulks(buffer)).containsExactly(ascii("read"));
		}
		finally {
			buffer.release();
		}
	}

	@Test
	void stopsReadingAtTheFirstByteThatDoesNotStartABulkString() {
		ByteBuf buffer = buffer((target) -> {
			RespWriter.bulk(target, ascii("first"));
			RespWriter.array(target, 1);
			RespWriter.bulk(target, ascii("after the array"));
		});
		try {
			assertThat(RespWriter.bulks(buffer)).containsExactly(ascii("first"));
		}
		finally {
			buffer.release();
		}
	}

	@Test
	void readsNothingFromAnEmptyBuffer() {
		ByteBuf buffer = Unpooled.buffer();
		try {
			assertThat(RespWriter.bulks(buffer)).isEmpty();
		}
		finally {
			buffer.release();
		}
	}

	@Test
	void readsAsManyBulkStringsAsWereWritten() {
		ByteBuf buffer = buffer((target) -> {
			for (int i = 0; i < 1000; i++) {
				RespWriter.bulk(target, i);
			}
		});
		try {
			List<byte[]> bulks = RespWriter.bulks(buffer);
			assertThat(bulks).hasSize(1000);
			assertThat(bulks.get(999)).isEqualTo(ascii("999"));
			assertThat(buffer.isReadable()).isFalse();
		}
		finally {
			buffer.release();
		}
	}

	/**
	 * Every point where the number of digits changes: each power of ten up to 10^18 and
	 * its neighbours, positive and negative, and the extremes.
	 */
	private static List<Long> powersOfTenAndTheirNeighbours() {
		List<Long> numbers = new ArrayList<>(List.of(0L, Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE + 1));
		long power = 1;
		for (int exponent = 0; exponent <= 18; exponent++) {
			for (long number : new long[] { power - 1, power, power + 1 }) {
				numbers.add(number);
				numbers.add(-number);
			}
			if (exponent < 18) {
				power *= 10;
			}
		}
		return numbers;
	}

	@ParameterizedTest
	@ValueSource(strings = { "heap", "heap that grows", "heap slice at an offset", "heap with bytes before",
			"direct that grows" })
	void writesTheSameBytesIntoEveryKindOfBuffer(String kind) {
		byte[] before = ascii("*1\r\n$4\r\nPING\r\n");
		byte[] key = ascii("key:1");
		byte[] value = new byte[1500];
		Arrays.fill(value, (byte) 'v');
		ByteBuf backing = Unpooled.buffer(4096);
		ByteBuf buffer = switch (kind) {
			case "heap" -> Unpooled.buffer();
			case "heap that grows" -> Unpooled.buffer(1);
			case "heap slice at an offset" -> backing.writerIndex(100).slice(100, 3000).clear();
			case "heap with bytes before" -> Unpooled.buffer(2).writeBytes(before);
			default -> Unpooled.directBuffer(1);
		};
		try {
			RespWriter.array(buffer, 3);
			RespWriter.bulk(buffer, CommandType.SET);
			RespWriter.bulk(buffer, key);
			RespWriter.bulk(buffer, value);

			byte[] command = concat(ascii("*3\r\n$3\r\nSET\r\n$5\r\nkey:1\r\n$1500\r\n"), value, ascii("\r\n"));
			assertThat(ByteBufUtil.getBytes(buffer))
				.isEqualTo(kind.equals("heap with bytes before") ? concat(before, command) : command);
		}
		finally {
			buffer.release();
			if (backing.refCnt() > 0) {
				backing.release();
			}
		}
	}

	private static byte[] written(Consumer<ByteBuf> writer) {
		ByteBuf buffer = buffer(writer);
		try {
			return ByteBufUtil.getBytes(buffer);
		}
		finally {
			buffer.release();
		}
	}

	private static ByteBuf buffer(Consumer<ByteBuf> writer) {
		ByteBuf buffer = Unpooled.buffer();
		writer.accept(buffer);
		return buffer;
	}

	private static byte[] ascii(String text) {
		return text.getBytes(StandardCharsets.US_ASCII);
	}

	private static byte[] concat(byte[]... parts) {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		for (byte[] part : parts) {
			bytes.writeBytes(part);
		}
		return bytes.toByteArray();
	}

}
