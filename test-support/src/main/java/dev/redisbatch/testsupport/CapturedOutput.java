package dev.redisbatch.testsupport;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * What a test wrote to {@code System.out} and {@code System.err} (log lines included)
 * while {@link OutputCaptureExtension} captured it. It is a {@link CharSequence}, so
 * AssertJ's string assertions apply to it directly.
 *
 * @since 0.1.0
 */
public final class CapturedOutput implements CharSequence {

	private final ByteArrayOutputStream captured = new ByteArrayOutputStream();

	private final PrintStream originalOut;

	private final PrintStream originalErr;

	CapturedOutput() {
		this.originalOut = System.out;
		this.originalErr = System.err;
		System.setOut(tee(this.originalOut));
		System.setErr(tee(this.originalErr));
	}

	private PrintStream tee(PrintStream original) {
		return new PrintStream(new OutputStream() {

			@Override
			public void write(int b) {
				original.write(b);
				synchronized (CapturedOutput.this.captured) {
					CapturedOutput.this.captured.write(b);
				}
			}

			@Override
			public void write(byte[] bytes, int offset, int length) {
				original.write(bytes, offset, length);
				synchronized (CapturedOutput.this.captured) {
					CapturedOutput.this.captured.write(bytes, offset, length);
				}
			}

		}, true, StandardCharsets.UTF_8);
	}

	void restore() {
		System.setOut(this.originalOut);
		System.setErr(this.originalErr);
	}

	/**
	 * Everything written to both streams so far.
	 * @return the output
	 */
	public String getAll() {
		synchronized (this.captured) {
			return this.captured.toString(StandardCharsets.UTF_8);
		}
	}

	@Override
	public int length() {
		return getAll().length();
	}

	@Override
	public char charAt(int index) {
		return getAll().charAt(index);
	}

	@Override
	public CharSequence subSequence(int start, int end) {
		return getAll().subSequence(start, end);
	}

	@Override
	public String toString() {
		return getAll();
	}

}
