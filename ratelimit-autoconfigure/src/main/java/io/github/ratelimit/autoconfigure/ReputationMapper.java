package io.github.ratelimit.autoconfigure;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.springframework.core.io.Resource;

import io.github.ratelimit.policy.InvalidRateLimitConfigurationException;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.reputation.ListSource;
import io.github.ratelimit.reputation.ReputationList;
import io.github.ratelimit.reputation.ReputationLists;
import io.github.ratelimit.reputation.UrlListSource;

/**
 * Maps {@code ratelimit.reputation} onto the reputation lists, checking every value.
 */
final class ReputationMapper {

	private ReputationMapper() {
	}

	static ReputationLists lists(ReputationProperties reputation, PolicyTable policies, Clock clock) {
		List<ReputationList> lists = new ArrayList<>();
		for (Map.Entry<String, ReputationProperties.ListProperties> entry : reputation.getLists().entrySet()) {
			String prefix = "ratelimit.reputation.lists." + entry.getKey();
			ReputationProperties.ListProperties list = entry.getValue();
			String tier = list.getTier();
			if (tier != null && !policies.hasTier(tier)) {
				throw new InvalidRateLimitConfigurationException(prefix + ".tier", tier,
						"no such tier in ratelimit.tiers " + policies.tiers(), "suspicious");
			}
			if (list.getRefreshInterval().compareTo(Duration.ofSeconds(1)) < 0) {
				throw new InvalidRateLimitConfigurationException(prefix + ".refresh-interval",
						list.getRefreshInterval(), "must be at least 1s", "1h");
			}
			if (list.getMaxEntries() < 1) {
				throw new InvalidRateLimitConfigurationException(prefix + ".max-entries", list.getMaxEntries(),
						"must be at least 1", "100000");
			}
			lists.add(new ReputationList(entry.getKey(), source(prefix, list, reputation.getTimeout()), tier,
					list.getRefreshInterval(), list.getMaxEntries(), clock));
		}
		return new ReputationLists(lists);
	}

	/** The shortest refresh interval of the lists. */
	static Duration shortestInterval(ReputationProperties reputation) {
		return reputation.getLists()
			.values()
			.stream()
			.map(ReputationProperties.ListProperties::getRefreshInterval)
			.min(Duration::compareTo)
			.orElse(Duration.ofHours(1));
	}

	private static ListSource source(String prefix, ReputationProperties.ListProperties list, Duration timeout) {
		Resource source = list.getSource();
		if (source == null) {
			throw new InvalidRateLimitConfigurationException(prefix + ".source", "", "every list needs a source",
					"https://www.spamhaus.org/drop/drop.txt");
		}
		try {
			return new UrlListSource(source.getURL(), timeout);
		}
		catch (IOException ex) {
			throw new InvalidRateLimitConfigurationException(prefix + ".source", source.toString(),
					"not a file or URL (" + ex.getMessage() + ")", "file:/etc/ratelimit/drop.txt");
		}
	}

}
