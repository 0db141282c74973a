package io.github.ratelimit.docs;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import io.github.ratelimit.test.MonitoringAssets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every alert of {@code ops/prometheus/ratelimit-alerts.yml} links a runbook that exists:
 * a heading of a page under {@code docs/}, named after the alert.
 */
class AlertRunbookLinksTests {

	@Test
	void everyAlertLinksItsOwnRunbookSection() {
		assertThat(MonitoringAssets.alertRules()).isNotEmpty().allSatisfy((rule) -> {
			String runbook = rule.annotations().get("runbook");
			assertThat(runbook).as(rule.name()).startsWith("docs/").contains(".md#");
			Path page = DocumentationFiles.ROOT.resolve(runbook.substring(0, runbook.indexOf('#')));
			String anchor = runbook.substring(runbook.indexOf('#') + 1);
			assertThat(anchor).as(rule.name()).isEqualTo(DocumentationFiles.anchor(rule.name()));
			assertThat(DocumentationFiles.anchors(DocumentationFiles.read(page))).as(rule.name()).contains(anchor);
		});
	}

}
