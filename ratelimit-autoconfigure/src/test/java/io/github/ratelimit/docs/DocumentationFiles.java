package io.github.ratelimit.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The project's Markdown documentation as the documentation tests read it: the README and
 * the pages under {@code docs/}, their text outside code, and the anchors their headings
 * get on GitHub.
 */
final class DocumentationFiles {

	/** The repository root: tests run in the module's directory. */
	static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

	static final Path README = ROOT.resolve("README.md");

	static final Path DOCS = ROOT.resolve("docs");

	private DocumentationFiles() {
	}

	static String read(Path file) {
		try {
			return Files.readString(file, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** The README and every page under {@code docs/}. */
	static List<Path> all() {
		List<Path> files = new ArrayList<>();
		files.add(README);
		files.addAll(pages());
		return files;
	}

	/** The pages under {@code docs/}, sorted. */
	static List<Path> pages() {
		try (Stream<Path> files = Files.list(DOCS)) {
			return files.filter((file) -> file.getFileName().toString().endsWith(".md")).sorted().toList();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * The text outside fenced code blocks (also indented ones, inside list items), with
	 * every code span replaced by {@code code}: what GitHub renders as prose.
	 */
	static String prose(String markdown) {
		StringBuilder prose = new StringBuilder();
		boolean fenced = false;
		for (String line : markdown.split("\n", -1)) {
			if (line.strip().startsWith("```")) {
				fenced = !fenced;
			}
			else if (!fenced) {
				prose.append(line).append('\n');
			}
		}
		return prose.toString().replaceAll("`[^`]*`", "code");
	}

	/**
	 * The anchors of a page's headings by GitHub's rules: lower case, spaces to
	 * {@code -}, punctuation (including Markdown's) dropped, and {@code -1}, {@code -2}
	 * appended to repeats.
	 */
	static Set<String> anchors(String markdown) {
		Set<String> anchors = new LinkedHashSet<>();
		boolean fenced = false;
		for (String line : markdown.split("\n")) {
			if (line.strip().startsWith("```")) {
				fenced = !fenced;
			}
			else if (!fenced && line.matches("#{1,6} .*")) {
				String anchor = anchor(line.substring(line.indexOf(' ') + 1));
				String unique = anchor;
				for (int repeat = 1; anchors.contains(unique); repeat++) {
					unique = anchor + "-" + repeat;
				}
				anchors.add(unique);
			}
		}
		return anchors;
	}

	static String anchor(String heading) {
		StringBuilder anchor = new StringBuilder();
		heading.strip().toLowerCase(Locale.ROOT).codePoints().forEach((c) -> {
			if (c == ' ') {
				anchor.append('-');
			}
			else if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
				anchor.appendCodePoint(c);
			}
		});
		return anchor.toString();
	}

}
