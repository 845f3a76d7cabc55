package dev.redisbatch;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The position of a scan over every master: its token, its validation and its serialized
 * form, without a server.
 */
class ScanCursorTests {

	@Test
	void theStartKnowsNoMasterAndIsNotComplete() {
		ScanCursor start = ScanCursor.start();
		assertThat(start.isComplete()).isFalse();
		assertThat(start.cursorOf(0)).isEqualTo("0");
		assertThat(start.cursorOf(ScanCursor.SINGLE_SERVER)).isEqualTo("0");
		assertThat(start.toToken()).isEqualTo("scan1:");
		assertThat(ScanCursor.fromToken("scan1:")).isEqualTo(start);
	}

	@Test
	void aPositionPerMasterRoundTripsThroughItsToken() {
		ScanCursor cursor = ScanCursor.start().advance(10923, "18446744073709551615").finish(0).advance(5461, "1536");

		String token = cursor.toToken();

		assertThat(token).isEqualTo("scan1:0=done,5461=1536,10923=18446744073709551615");
		ScanCursor parsed = ScanCursor.fromToken(token);
		assertThat(parsed).isEqualTo(cursor).hasSameHashCodeAs(cursor);
		assertThat(parsed.isFinished(0)).isTrue();
		assertThat(parsed.cursorOf(5461)).isEqualTo("1536");
		assertThat(parsed.cursorOf(42)).as("a master the cursor does not know starts from 0").isEqualTo("0");
	}

	@Test
	void aStandaloneServerHasOneFixedKey() {
		ScanCursor cursor = ScanCursor.start().advance(ScanCursor.SINGLE_SERVER, "88");
		assertThat(cursor.toToken()).isEqualTo("scan1:server=88");
		assertThat(ScanCursor.fromToken("scan1:server=88")).isEqualTo(cursor);
	}

	@Test
	void theEndIsOneToken() {
		assertThat(ScanCursor.end().isComplete()).isTrue();
		assertThat(ScanCursor.end().toToken()).isEqualTo("scan1:complete");
		assertThat(ScanCursor.fromToken("scan1:complete")).isEqualTo(ScanCursor.end());
		assertThat(ScanCursor.end()).isNotEqualTo(ScanCursor.start());
	}

	@Test
	void cursorZeroAndLeadingZerosAreReadInCanonicalForm() {
		assertThat(ScanCursor.fromToken("scan1:0=0,5461=0042")).isEqualTo(ScanCursor.start().advance(5461, "42"));
	}

	@Test
	void aBadTokenGetsAClearError() {
		assertThatIllegalArgumentException().isThrownBy(() -> ScanCursor.fromToken("0=12"))
			.withMessageContaining("Invalid scan cursor token")
			.withMessageContaining("does not start with 'scan1:'");
		assertThatIllegalArgumentException().isThrownBy(() -> ScanCursor.fromToken("scan1:0"))
			.withMessageContaining("'0' is not master=cursor");
		assertThatIllegalArgumentException().isThrownBy(() -> ScanCursor.fromToken("scan1:16384=1"))
			.withMessageContaining("neither 'server' nor a hash slot");
		assertThatIllegalArgumentException().isThrownBy(() -> ScanCursor.fromToken("scan1:0=-1"))
			.withMessageContaining("is neither a SCAN cursor");
		assertThatIllegalArgumentException().isThrownBy(() -> ScanCursor.fromToken("scan1:0=18446744073709551616"))
			.withMessageContaining("is neither a SCAN cursor");
		assertThatIllegalArgumentException().isThrownBy(() -> ScanCursor.fromToken("scan1:0=1,0=2"))
			.withMessageContaining("appears twice");
		assertThatIllegalArgumentException().isThrownBy(() -> ScanCursor.fromToken("scan1:server=1,0=2"))
			.withMessageContaining("both a standalone server and cluster masters");
		assertThatIllegalArgumentException().isThrownBy(() -> ScanCursor.fromToken("scan1:0=1,"))
			.withMessageContaining("'' is not master=cursor");
	}

	@Test
	void itIsSerializedAsItsToken() throws Exception {
		ScanCursor cursor = ScanCursor.start().finish(0).advance(5461, "1536");

		Object read = roundTrip(cursor);

		assertThat(read).isEqualTo(cursor);
		assertThat(roundTrip(ScanCursor.end())).isEqualTo(ScanCursor.end());
	}

	private static Object roundTrip(Object object) throws IOException, ClassNotFoundException {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
			out.writeObject(object);
		}
		try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
			return in.readObject();
		}
	}

}
