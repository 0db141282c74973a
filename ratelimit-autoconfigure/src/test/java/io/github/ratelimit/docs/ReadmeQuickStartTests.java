package io.github.ratelimit.docs;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's quick start keeps its two commands word for word (people copy them, and
 * the sample app's build must stay one line), and the test command it shows is the one
 * CI's {@code .ci/run} runs, up to flags that only change Maven's output.
 */
class ReadmeQuickStartTests {

	static final String SAMPLE_APP_COMMAND = "mvn -B -q -DskipTests -Dinvoker.skip package -pl sample-app -am"
			+ " && java -jar sample-app/target/sample-app.jar";

	static final String TEST_COMMAND = "mvn -B verify";

	/** Flags of {@code .ci/run} that change only what Maven prints. */
	private static final List<String> OUTPUT_FLAGS = List.of("-ntp", "--no-transfer-progress", "-q", "--quiet");

	@Test
	void quickStartShowsTheSampleAppAndTestCommands() {
		assertThat(quickStartCommands()).contains(SAMPLE_APP_COMMAND, TEST_COMMAND);
	}

	@Test
	void ciRunsTheReadmesTestCommand() {
		List<String> mavenRuns = DocumentationFiles.read(DocumentationFiles.ROOT.resolve(".ci/run"))
			.lines()
			.map(String::strip)
			.filter((line) -> line.startsWith("mvn "))
			.toList();
		assertThat(mavenRuns).as("Maven runs in .ci/run").hasSize(1);
		List<String> words = new ArrayList<>(Arrays.asList(mavenRuns.get(0).split("\\s+")));
		words.removeAll(OUTPUT_FLAGS);
		assertThat(String.join(" ", words)).isEqualTo(TEST_COMMAND);
	}

	/** The lines of the {@code bash} blocks of the README's quick start section. */
	private static List<String> quickStartCommands() {
		String readme = DocumentationFiles.read(DocumentationFiles.README);
		int start = readme.indexOf("\n## Quick start (fresh machine)\n");
		assertThat(start).as("the README's quick start section").isNotNegative();
		int end = readme.indexOf("\n## ", start + 1);
		String section = readme.substring(start, (end >= 0) ? end : readme.length());
		List<String> commands = new ArrayList<>();
		boolean bash = false;
		for (String line : section.split("\n")) {
			if (line.startsWith("```")) {
				bash = line.equals("```bash");
			}
			else if (bash) {
				commands.add(line.strip());
			}
		}
		return commands;
	}

}
