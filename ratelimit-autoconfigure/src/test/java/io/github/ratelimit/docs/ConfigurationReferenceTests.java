package io.github.ratelimit.docs;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The configuration reference ({@code docs/configuration.md}) and the properties the code
 * binds agree: every key in its {@code ratelimit:} block is a property of the generated
 * configuration metadata, and every property is in the block.
 */
class ConfigurationReferenceTests {

	private static final Path REFERENCE = DocumentationFiles.ROOT.resolve("docs/configuration.md");

	@Test
	void referenceListsExactlyTheConfigurationProperties() throws IOException {
		Set<String> documented = referenceKeys();
		Set<String> properties = metadataProperties();
		assertThat(documented).as("keys of %s that are no property", REFERENCE).isSubsetOf(properties);
		assertThat(properties).as("properties %s does not list", REFERENCE).isSubsetOf(documented);
	}

	/**
	 * The keys of the reference's first {@code ratelimit:} YAML block, down to the
	 * properties.
	 */
	private static Set<String> referenceKeys() throws IOException {
		String reference = DocumentationFiles.read(REFERENCE);
		int start = reference.indexOf("```yaml\nratelimit:\n");
		assertThat(start).as("a ```yaml block starting with ratelimit: in %s", REFERENCE).isNotNegative();
		String block = reference.substring(start + "```yaml\n".length(), reference.indexOf("```", start + 7));
		Set<String> properties = metadataProperties();
		Set<String> keys = new LinkedHashSet<>();
		Deque<String> path = new ArrayDeque<>();
		Deque<Integer> indents = new ArrayDeque<>();
		int skipDeeperThan = Integer.MAX_VALUE;
		for (String line : block.split("\n")) {
			String content = line.strip();
			if (content.isEmpty() || content.startsWith("#") || content.startsWith("-")) {
				continue;
			}
			int indent = line.indexOf(content);
			if (indent > skipDeeperThan) {
				continue;
			}
			skipDeeperThan = Integer.MAX_VALUE;
			while (!indents.isEmpty() && indents.peek() >= indent) {
				indents.pop();
				path.pop();
			}
			String key = content.substring(0, content.indexOf(':'));
			path.push(key);
			indents.push(indent);
			List<String> segments = new ArrayList<>(path);
			Collections.reverse(segments);
			String name = String.join(".", segments);
			String value = content.substring(content.indexOf(':') + 1).replaceAll("#.*", "").strip();
			if (!value.isEmpty() || properties.contains(name)) {
				keys.add(name);
				// a map or list property (groups, tiers, ip, api-keys): its entries are
				// values, not keys
				skipDeeperThan = indent;
			}
		}
		return keys;
	}

	private static Set<String> metadataProperties() throws IOException {
		try (InputStream in = ConfigurationReferenceTests.class.getClassLoader()
			.getResourceAsStream("META-INF/spring-configuration-metadata.json")) {
			assertThat(in).as("generated configuration metadata").isNotNull();
			JsonNode metadata = JsonMapper.builder().build().readTree(in);
			Set<String> names = new TreeSet<>();
			// the endpoint's own management.endpoint.ratelimits.* properties are
			// Actuator's, documented there
			metadata.get("properties").forEach((property) -> {
				String name = property.get("name").asString();
				if (name.startsWith("ratelimit.")) {
					names.add(name);
				}
			});
			return names;
		}
	}

}
