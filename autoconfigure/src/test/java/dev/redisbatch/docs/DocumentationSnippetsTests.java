package dev.redisbatch.docs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import dev.redisbatch.testsupport.VersionIndependent;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every Java example in the documentation is code that compiles: each fenced {@code java}
 * block in {@code README.md} and {@code docs/*.md} is preceded by a
 * {@code <!-- snippet: path -->} comment, and appears verbatim (ignoring white space) in
 * that source file, which the build compiles and tests run. A block that starts with its
 * imports (or its package line) is the whole file from there to its end, so that it
 * compiles as printed.
 */
@VersionIndependent
class DocumentationSnippetsTests {

	private static final Pattern BLOCK = Pattern.compile("(?:<!-- snippet: (\\S+) -->\\s*\\n)?```java\\n(.*?)```",
			Pattern.DOTALL);

	private static final Pattern WHOLE_FILE = Pattern.compile("\\s*(package|import) ");

	private static final Pattern PACKAGE_LINE = Pattern.compile("^\\s*package [^;]+;");

	private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

	@Test
	void everyJavaExampleInTheDocsIsCompiledCode() throws IOException {
		List<String> problems = new ArrayList<>();
		int checked = 0;
		for (Path markdown : markdownFiles()) {
			String text = Files.readString(markdown, StandardCharsets.UTF_8);
			Matcher matcher = BLOCK.matcher(text);
			while (matcher.find()) {
				String where = ROOT.relativize(markdown) + " (offset " + matcher.start() + ")";
				String source = matcher.group(1);
				if (source == null) {
					problems.add(where + ": java block without a <!-- snippet: path --> comment");
					continue;
				}
				Path file = ROOT.resolve(source);
				if (!Files.isRegularFile(file)) {
					problems.add(where + ": " + source + " does not exist");
					continue;
				}
				String code = Files.readString(file, StandardCharsets.UTF_8);
				String example = matcher.group(2);
				if (!squash(code).contains(squash(example))) {
					problems.add(where + ": the example is not in " + source);
				}
				else if (WHOLE_FILE.matcher(example).lookingAt() && !squash(example).equals(squash(code))
						&& !squash(example).equals(squash(PACKAGE_LINE.matcher(code).replaceFirst("")))) {
					problems
						.add(where + ": the example starts as a whole file does, but is not the whole of " + source);
				}
				checked++;
			}
		}
		assertThat(problems).isEmpty();
		assertThat(checked).isPositive();
	}

	private static List<Path> markdownFiles() throws IOException {
		List<Path> files = new ArrayList<>();
		files.add(ROOT.resolve("README.md"));
		try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
			docs.filter((path) -> path.toString().endsWith(".md")).sorted().forEach(files::add);
		}
		return files;
	}

	private static String squash(String code) {
		return code.replaceAll("\\s+", "");
	}

}
