package dev.redisbatch.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Fails when any file under the given directories (the test run's logs and reports)
 * contains {@link TestSecrets#MARKER}: a key, value or password that a test marked as
 * secret was logged. Run by the build after the tests.
 *
 * @since 0.1.0
 */
public final class LogScanner {

	private LogScanner() {
	}

	/**
	 * Scan directories; missing ones are skipped.
	 * @param args the directories
	 * @throws IllegalStateException naming the files and lines that contain a secret
	 */
	public static void main(String[] args) {
		List<String> findings = new ArrayList<>();
		int files = 0;
		for (String directory : args) {
			Path root = Path.of(directory);
			if (!Files.isDirectory(root)) {
				continue;
			}
			try (Stream<Path> paths = Files.walk(root)) {
				for (Path file : paths.filter(Files::isRegularFile).toList()) {
					files++;
					findings.addAll(scan(file));
				}
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
		if (!findings.isEmpty()) {
			throw new IllegalStateException("Secrets marked " + TestSecrets.MARKER + " appear in the test run's logs:\n"
					+ String.join("\n", findings));
		}
		System.out.println("LogScanner: no secret in " + files + " files of the test run");
	}

	private static List<String> scan(Path file) throws IOException {
		List<String> findings = new ArrayList<>();
		List<String> lines = Files.readAllLines(file, StandardCharsets.ISO_8859_1);
		for (int i = 0; i < lines.size(); i++) {
			if (lines.get(i).contains(TestSecrets.MARKER)) {
				findings.add("  " + file + ":" + (i + 1));
			}
		}
		return findings;
	}

}
