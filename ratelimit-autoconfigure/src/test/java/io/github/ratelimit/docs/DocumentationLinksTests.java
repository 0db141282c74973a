package io.github.ratelimit.docs;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The links between the README and the pages under {@code docs/} lead somewhere: every
 * relative link names an existing file or directory, every {@code #anchor} a heading of
 * its page, and the README links every page.
 */
class DocumentationLinksTests {

	/** An inline link or image: its text, then its target and an optional title. */
	private static final Pattern LINK = Pattern.compile("\\[[^\\]]*\\]\\(\\s*([^)\\s]+)(?:\\s+\"[^\"]*\")?\\s*\\)");

	@Test
	void relativeLinksPointToExistingFilesAndHeadings() {
		List<String> broken = new ArrayList<>();
		for (Path file : DocumentationFiles.all()) {
			for (String target : relativeLinks(file)) {
				String problem = problem(file, target);
				if (problem != null) {
					broken.add(DocumentationFiles.ROOT.relativize(file) + ": " + target + " (" + problem + ")");
				}
			}
		}
		assertThat(broken).as("broken links").isEmpty();
	}

	@Test
	void readmeLinksEveryPage() {
		List<String> linked = relativeLinks(DocumentationFiles.README).stream()
			.map((target) -> target.replaceAll("#.*", ""))
			.toList();
		assertThat(DocumentationFiles.pages()).isNotEmpty()
			.allSatisfy((page) -> assertThat(linked).as("README links").contains("docs/" + page.getFileName()));
	}

	@Test
	void anchorsFollowGitHubsRules() {
		assertThat(DocumentationFiles.anchor("Quick start (fresh machine)")).isEqualTo("quick-start-fresh-machine");
		assertThat(DocumentationFiles.anchor("What `t` (and every Reset header) means"))
			.isEqualTo("what-t-and-every-reset-header-means");
		assertThat(DocumentationFiles.anchors("# A\n```\n# not a heading\n```\n## A\n")).containsExactly("a", "a-1");
	}

	private static List<String> relativeLinks(Path file) {
		List<String> targets = new ArrayList<>();
		Matcher links = LINK.matcher(DocumentationFiles.prose(DocumentationFiles.read(file)));
		while (links.find()) {
			String target = links.group(1);
			if (!target.matches("(?i)[a-z][a-z0-9+.-]*:.*")) {
				targets.add(target);
			}
		}
		return targets;
	}

	/** What is wrong with a link from a file, or {@code null}. */
	private static String problem(Path file, String target) {
		int hash = target.indexOf('#');
		String path = (hash >= 0) ? target.substring(0, hash) : target;
		Path resolved = path.isEmpty() ? file : file.getParent().resolve(path).normalize();
		if (!resolved.startsWith(DocumentationFiles.ROOT)) {
			return "outside the repository";
		}
		if (!Files.exists(resolved)) {
			return "no such file";
		}
		if (hash >= 0) {
			if (!resolved.toString().endsWith(".md")) {
				return "an anchor into a file that is not Markdown";
			}
			String anchor = target.substring(hash + 1);
			if (!DocumentationFiles.anchors(DocumentationFiles.read(resolved)).contains(anchor)) {
				return "no heading with this anchor";
			}
		}
		return null;
	}

}
