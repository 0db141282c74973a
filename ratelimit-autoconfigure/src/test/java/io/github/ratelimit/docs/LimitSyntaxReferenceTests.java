package io.github.ratelimit.docs;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.github.ratelimit.policy.Bandwidth;
import io.github.ratelimit.policy.LimitParser;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every kind of limit the parser knows is written out where users look for the syntax:
 * the configuration reference's section on limit strings, the README's table for choosing
 * a kind, and the IDE's value hints. The examples are parsed, so an example of the wrong
 * syntax, or a kind added without documentation, fails here.
 */
class LimitSyntaxReferenceTests {

	private static final Pattern CODE = Pattern.compile("`([^`]+)`");

	@Test
	void configurationReferenceWritesEveryKind() throws IOException {
		String reference = DocumentationFiles.read(DocumentationFiles.DOCS.resolve("configuration.md"));
		int start = reference.indexOf("## Limit strings");
		String section = reference.substring(start, reference.indexOf("\n## ", start + 3));
		assertThat(kindsIn(examples(section))).containsExactlyInAnyOrderElementsOf(allKinds());
	}

	@Test
	void readmeTableOfKindsWritesEveryKind() throws IOException {
		String readme = DocumentationFiles.read(DocumentationFiles.README);
		int start = readme.indexOf("### Choosing a kind of limit");
		assertThat(start).as("the README's section on choosing a kind").isNotNegative();
		String section = readme.substring(start, readme.indexOf("\n### ", start + 3));
		assertThat(kindsIn(examples(section))).containsExactlyInAnyOrderElementsOf(allKinds());
	}

	@Test
	void ideHintsOfferEveryKindOfRateOrWindow() throws IOException {
		List<String> hinted = new ArrayList<>();
		try (InputStream in = getClass().getClassLoader()
			.getResourceAsStream("META-INF/additional-spring-configuration-metadata.json")) {
			JsonNode metadata = JsonMapper.builder().build().readTree(in);
			metadata.get("hints").forEach((hint) -> {
				if (hint.has("values")) {
					hint.get("values").forEach((value) -> hinted.add(value.get("value").asString()));
				}
			});
		}
		Set<String> kinds = kindsIn(hinted);
		assertThat(kinds).contains("FixedWindow", "SlidingWindow", "LeakyBucket");
	}

	/** Code spans of a text that parse as limits (others are names, paths, codes...). */
	private static List<String> examples(String text) {
		List<String> examples = new ArrayList<>();
		Matcher matcher = CODE.matcher(text);
		while (matcher.find()) {
			examples.add(matcher.group(1).replace("\"", ""));
		}
		return examples;
	}

	private static Set<String> kindsIn(List<String> candidates) {
		Set<String> kinds = new LinkedHashSet<>();
		for (String candidate : candidates) {
			try {
				LimitParser.parse(candidate)
					.bandwidths()
					.forEach((bandwidth) -> kinds.add(bandwidth.getClass().getSimpleName()));
			}
			catch (IllegalArgumentException ex) {
				// not a limit string
			}
		}
		return kinds;
	}

	/**
	 * The concrete kinds of the sealed hierarchy, so that a new one must be documented.
	 */
	private static Set<String> allKinds() {
		Set<String> kinds = new LinkedHashSet<>();
		collect(Bandwidth.class, kinds);
		return kinds;
	}

	private static void collect(Class<?> type, Set<String> kinds) {
		if (type.isSealed()) {
			for (Class<?> permitted : type.getPermittedSubclasses()) {
				collect(permitted, kinds);
			}
		}
		else {
			kinds.add(type.getSimpleName());
		}
	}

}
