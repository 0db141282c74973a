package io.github.ratelimit.autoconfigure;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.server.PathContainer;
import org.springframework.web.util.pattern.PathPatternParser;

import io.github.ratelimit.core.status.CallerStatus;
import io.github.ratelimit.http.RateLimitHeaders;
import io.github.ratelimit.http.RejectionBodyWriter;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.RateLimitStore;
import io.github.ratelimit.storage.StoreDecision;
import io.github.ratelimit.web.EndpointClassifier;
import io.github.ratelimit.web.reactive.ReactiveRateLimitStatusFilter;
import io.github.ratelimit.web.servlet.RateLimitStatusFilter;

import static io.github.ratelimit.autoconfigure.StartFailures.assertStartFailure;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;

/**
 * The status endpoint's beans: none unless {@code ratelimit.status.enabled}, a filter of
 * the application's stack just before the limiter's once on, its path excluded from every
 * limit, back-offs for the user's own beans, and start failures that name a bad path or a
 * store that cannot read budgets.
 */
class RateLimitStatusAutoConfigurationTests {

	private final WebApplicationContextRunner servlet = new WebApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(RateLimitAutoConfiguration.class, RateLimitStatusAutoConfiguration.class))
		.withPropertyValues("ratelimit.tiers.anonymous.ip.default=10/1m");

	private final ReactiveWebApplicationContextRunner reactive = new ReactiveWebApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(RateLimitAutoConfiguration.class, RateLimitStatusAutoConfiguration.class))
		.withPropertyValues("ratelimit.tiers.anonymous.ip.default=10/1m");

	@Test
	void isOffByDefault() {
		this.servlet.run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context).doesNotHaveBean(CallerStatus.class);
			assertThat(context).doesNotHaveBean("rateLimitStatusFilter");
			assertThat(excluded(context.getBean(EndpointClassifier.class), "/ratelimit")).isFalse();
		});
		this.reactive.run((context) -> {
			assertThat(context).doesNotHaveBean(CallerStatus.class);
			assertThat(context).doesNotHaveBean(ReactiveRateLimitStatusFilter.class);
		});
	}

	@Test
	void registersTheServletFilterJustBeforeTheLimiterOnceSwitchedOn() {
		this.servlet.withPropertyValues("ratelimit.status.enabled=true").run((context) -> {
			assertThat(context).hasSingleBean(CallerStatus.class);
			FilterRegistrationBean<?> status = context.getBean("rateLimitStatusFilter", FilterRegistrationBean.class);
			assertThat(status.getFilter()).isInstanceOf(RateLimitStatusFilter.class);
			FilterRegistrationBean<?> limiter = context.getBean("rateLimitFilter", FilterRegistrationBean.class);
			assertThat(status.getOrder()).isEqualTo(limiter.getOrder() - 1).isGreaterThan(-100);
			assertThat(excluded(context.getBean(EndpointClassifier.class), "/ratelimit")).isTrue();
		});
	}

	@Test
	void registersTheWebFilterJustBeforeTheLimiterOnceSwitchedOn() {
		this.reactive.withPropertyValues("ratelimit.status.enabled=true", "ratelimit.filter.order=5").run((context) -> {
			assertThat(context.getBean(ReactiveRateLimitStatusFilter.class).getOrder()).isEqualTo(4);
			assertThat(excluded(context.getBean(EndpointClassifier.class), "/ratelimit")).isTrue();
		});
	}

	@Test
	void answersAtTheConfiguredPathAndExcludesItBesideTheConfiguredExclusions() {
		this.servlet
			.withPropertyValues("ratelimit.status.enabled=true", "ratelimit.status.path=/api/v1/limits",
					"ratelimit.exclude-paths=/ping")
			.run((context) -> {
				EndpointClassifier classifier = context.getBean(EndpointClassifier.class);
				assertThat(excluded(classifier, "/api/v1/limits")).isTrue();
				assertThat(excluded(classifier, "/ping")).isTrue();
				assertThat(excluded(classifier, "/ratelimit")).isFalse();
			});
	}

	@Test
	void backsOffWhenTheUserDefinesTheStatusOrItsFilter() {
		this.servlet.withPropertyValues("ratelimit.status.enabled=true")
			.withUserConfiguration(UserStatus.class)
			.run((context) -> {
				assertThat(context).hasSingleBean(CallerStatus.class);
				assertThat(context).hasBean("userCallerStatus");
				assertThat(context).hasBean("rateLimitStatusFilter");
			});
		this.servlet.withPropertyValues("ratelimit.status.enabled=true")
			.withUserConfiguration(UserServletFilter.class)
			.run((context) -> {
				assertThat(context).doesNotHaveBean("rateLimitStatusFilter");
				assertThat(context).hasBean("userStatusFilter");
			});
		this.reactive.withPropertyValues("ratelimit.status.enabled=true")
			.withUserConfiguration(UserReactiveFilter.class)
			.run((context) -> assertThat(context).getBeans(ReactiveRateLimitStatusFilter.class)
				.containsOnlyKeys("userStatusFilter"));
	}

	@Test
	void isOffWhileRateLimitingIsOff() {
		this.servlet.withPropertyValues("ratelimit.enabled=false", "ratelimit.status.enabled=true").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context).doesNotHaveBean(CallerStatus.class);
		});
	}

	@Test
	void aBadPathStopsTheStartNamingTheProperty() {
		for (String path : List.of("ratelimit", "/", "/ratelimit/**", "/limits/{user}", "/a b", "/x?y=1")) {
			this.servlet.withPropertyValues("ratelimit.status.enabled=true", "ratelimit.status.path=" + path)
				.run((context) -> assertStartFailure(context, "ratelimit.status.path", path, "/ratelimit"));
		}
	}

	@Test
	void aStoreThatCannotReadBudgetsStopsTheStartNamingTheProperty() {
		this.servlet.withPropertyValues("ratelimit.status.enabled=true")
			.withUserConfiguration(StoreWithoutReads.class)
			.run((context) -> assertStartFailure(context, "ratelimit.status.enabled", "true", "false"));
	}

	private static boolean excluded(EndpointClassifier classifier, String path) {
		Classification classification = classifier.classify("GET", PathContainer.parsePath(path));
		return classification.excluded();
	}

	@Configuration(proxyBeanMethods = false)
	static class UserStatus {

		@Bean
		CallerStatus userCallerStatus() {
			return mock(CallerStatus.class);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserServletFilter {

		@Bean
		FilterRegistrationBean<RateLimitStatusFilter> userStatusFilter(CallerStatus status, RateLimitHeaders headers,
				RejectionBodyWriter bodyWriter) {
			return new FilterRegistrationBean<>(new RateLimitStatusFilter(status,
					PathPatternParser.defaultInstance.parse("/mine"), headers, bodyWriter));
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserReactiveFilter {

		@Bean
		ReactiveRateLimitStatusFilter userStatusFilter(CallerStatus status, RateLimitHeaders headers,
				RejectionBodyWriter bodyWriter) {
			return new ReactiveRateLimitStatusFilter(status, PathPatternParser.defaultInstance.parse("/mine"), headers,
					bodyWriter, 0);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class StoreWithoutReads {

		@Bean
		RateLimitStore userStore() {
			return new RateLimitStore() {

				@Override
				public StoreDecision decide(List<LimitCheck> checks) {
					throw new UnsupportedOperationException();
				}

			};
		}

	}

}
