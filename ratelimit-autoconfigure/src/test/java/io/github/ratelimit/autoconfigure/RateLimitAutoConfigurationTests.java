package io.github.ratelimit.autoconfigure;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.server.RequestPath;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

import io.github.ratelimit.core.AddressGate;
import io.github.ratelimit.core.Decision;
import io.github.ratelimit.core.DecisionListener;
import io.github.ratelimit.core.Outcome;
import io.github.ratelimit.core.RateLimiter;
import io.github.ratelimit.http.ProblemDetailsBodyWriter;
import io.github.ratelimit.http.RateLimitHeaders;
import io.github.ratelimit.identity.IdentityResolver;
import io.github.ratelimit.identity.ResolvedIdentity;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.RateLimitStore;
import io.github.ratelimit.storage.StoreDecision;
import io.github.ratelimit.storage.memory.InMemoryRateLimitStore;
import io.github.ratelimit.test.TestRequest;
import io.github.ratelimit.web.EndpointClassifier;
import io.github.ratelimit.web.reactive.ReactiveRateLimitFilter;
import io.github.ratelimit.web.reactive.ReactiveRateLimitGateFilter;
import io.github.ratelimit.web.servlet.RateLimitFilter;
import io.github.ratelimit.web.servlet.RateLimitGateFilter;

import static org.assertj.core.api.Assertions.assertThat;

@ExtendWith(OutputCaptureExtension.class)
class RateLimitAutoConfigurationTests {

	private final WebApplicationContextRunner servlet = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RateLimitAutoConfiguration.class));

	private final ReactiveWebApplicationContextRunner reactive = new ReactiveWebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RateLimitAutoConfiguration.class));

	private final ApplicationContextRunner plain = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RateLimitAutoConfiguration.class));

	@Test
	void registersServletFilterWithInMemoryStoreByDefault() {
		this.servlet.run((context) -> {
			assertThat(context).hasSingleBean(RateLimiter.class);
			FilterRegistrationBean<?> registration = context.getBean("rateLimitFilter", FilterRegistrationBean.class);
			assertThat(registration.getFilter()).isInstanceOf(RateLimitFilter.class);
			assertThat(registration.getOrder()).isEqualTo(RateLimitFilterOrder.DEFAULT);
			assertThat(context).getBean(RateLimitStore.class).isInstanceOf(InMemoryRateLimitStore.class);
			assertThat(context).doesNotHaveBean(ReactiveRateLimitFilter.class);
		});
	}

	@Test
	void memoryBoundsFitTheHeapByDefaultAndCanBeSet() {
		long heap = Runtime.getRuntime().maxMemory();
		this.servlet.run((context) -> {
			InMemoryRateLimitStore store = context.getBean(InMemoryRateLimitStore.class);
			assertThat(store.maxKeys()).isEqualTo(InMemoryRateLimitStore.defaultMaxKeys(heap));
			assertThat(store.maxIdentifiedKeys()).isEqualTo(InMemoryRateLimitStore.defaultMaxIdentifiedKeys(heap));
		});
		this.servlet
			.withPropertyValues("ratelimit.storage.memory.max-keys=5000",
					"ratelimit.storage.memory.max-identified-keys=3000")
			.run((context) -> {
				InMemoryRateLimitStore store = context.getBean(InMemoryRateLimitStore.class);
				assertThat(store.maxKeys()).isEqualTo(5000);
				assertThat(store.maxIdentifiedKeys()).isEqualTo(3000);
			});
	}

	@Test
	void memoryBoundBelowOneStopsTheStart() {
		for (String property : List.of("max-keys", "max-identified-keys")) {
			this.servlet.withPropertyValues("ratelimit.storage.memory." + property + "=0").run((context) -> {
				assertThat(context).hasFailed();
				String description = new RateLimitConfigurationFailureAnalyzer().analyze(context.getStartupFailure())
					.getDescription();
				assertThat(description).contains("ratelimit.storage.memory." + property).contains("at least 1");
			});
		}
	}

	@Test
	void malformedEnabledFlagStopsTheStartInsteadOfSwitchingTheLimiterOff() {
		this.servlet.withConfiguration(AutoConfigurations.of(RateLimitDisabledAutoConfiguration.class))
			.withPropertyValues("ratelimit.enabled=ture")
			.run((context) -> {
				assertThat(context).hasFailed();
				String description = new RateLimitConfigurationFailureAnalyzer().analyze(context.getStartupFailure())
					.getDescription();
				assertThat(description).contains("ratelimit.enabled").contains("ture").contains("true or false");
			});
	}

	@Test
	void disabledLimiterSaysSoOnce(CapturedOutput output) {
		this.servlet.withConfiguration(AutoConfigurations.of(RateLimitDisabledAutoConfiguration.class))
			.withPropertyValues("ratelimit.enabled=false")
			.run((context) -> {
				assertThat(context).hasNotFailed().doesNotHaveBean(RateLimiter.class);
				assertThat(output).containsOnlyOnce("Rate limiting is disabled (ratelimit.enabled=false)");
			});
		this.servlet.withConfiguration(AutoConfigurations.of(RateLimitDisabledAutoConfiguration.class))
			.run((context) -> assertThat(context).hasSingleBean(RateLimiter.class));
	}

	@Test
	void actuatorBasePathIsExcludedWhereverItIs() {
		this.servlet.run((context) -> {
			EndpointClassifier classifier = context.getBean(EndpointClassifier.class);
			assertThat(classify(classifier, "/actuator/health").excluded()).isTrue();
			assertThat(classify(classifier, "/manage/health").excluded()).isFalse();
		});
		this.servlet.withPropertyValues("management.endpoints.web.base-path=/manage").run((context) -> {
			EndpointClassifier classifier = context.getBean(EndpointClassifier.class);
			assertThat(classify(classifier, "/manage/health/liveness").excluded()).isTrue();
			assertThat(classify(classifier, "/actuator/health").excluded()).isFalse();
		});
		this.servlet.withPropertyValues("management.endpoints.web.base-path=/manage", "ratelimit.exclude-paths=/ping")
			.run((context) -> {
				EndpointClassifier classifier = context.getBean(EndpointClassifier.class);
				assertThat(classify(classifier, "/ping").excluded()).isTrue();
				assertThat(classify(classifier, "/manage/health").excluded()).as("configured paths replace the default")
					.isFalse();
			});
	}

	private static Classification classify(EndpointClassifier classifier, String path) {
		return classifier.classify("GET", RequestPath.parse(path, null).pathWithinApplication());
	}

	@Test
	void limitWithoutDimensionIsExplainedWithTheRightShape() {
		this.servlet.withPropertyValues("ratelimit.tiers.gold.default=5/1m").run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysis analysis = new RateLimitBindFailureAnalyzer().analyze(context.getStartupFailure());
			assertThat(analysis).isNotNull();
			assertThat(analysis.getDescription()).contains("ratelimit.tiers.gold.default");
			assertThat(analysis.getAction()).contains("ratelimit.tiers.gold.user.default=5/1m");
		});
	}

	@Test
	void unknownPropertyUnderRatelimitStopsTheStart() {
		this.servlet.withPropertyValues("ratelimit.tier.gold.user.default=5/1m").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(UnboundConfigurationPropertiesException.class)
				.hasMessageContaining("ratelimit.tier.gold.user.default");
		});
	}

	@Test
	void filterOrderIsConfigurable() {
		this.servlet.withPropertyValues("ratelimit.filter.order=5")
			.run((context) -> assertThat(context.getBean("rateLimitFilter", FilterRegistrationBean.class).getOrder())
				.isEqualTo(5));
	}

	@Test
	void registersTheGateBeforeSpringSecuritysFilterChain() {
		this.servlet.run((context) -> {
			FilterRegistrationBean<?> gate = context.getBean("rateLimitGateFilter", FilterRegistrationBean.class);
			assertThat(gate.getFilter()).isInstanceOf(RateLimitGateFilter.class);
			// SecurityFilterProperties.DEFAULT_FILTER_ORDER is -100
			assertThat(gate.getOrder()).isEqualTo(RateLimitFilterOrder.GATE).isLessThan(-100);
		});
		this.servlet.withPropertyValues("ratelimit.filter.gate-order=-200")
			.run((context) -> assertThat(
					context.getBean("rateLimitGateFilter", FilterRegistrationBean.class).getOrder())
				.isEqualTo(-200));
	}

	@Test
	void gateCanBeSwitchedOffOnBothStacks() {
		this.servlet.withPropertyValues("ratelimit.filter.gate-enabled=false").run((context) -> {
			assertThat(context).doesNotHaveBean("rateLimitGateFilter");
			assertThat(context).hasBean("rateLimitFilter");
		});
		this.reactive.withPropertyValues("ratelimit.filter.gate-enabled=false").run((context) -> {
			assertThat(context).doesNotHaveBean(ReactiveRateLimitGateFilter.class);
			assertThat(context).hasSingleBean(ReactiveRateLimitFilter.class);
		});
	}

	@Test
	void gateBacksOffWhenUserRegistersOneAndTheLimiterStays() {
		this.servlet.withUserConfiguration(CustomGateConfiguration.class).run((context) -> {
			assertThat(context).doesNotHaveBean("rateLimitGateFilter");
			assertThat(context.getBean("customGate", FilterRegistrationBean.class).isEnabled()).isFalse();
			assertThat(context).hasBean("rateLimitFilter");
		});
	}

	@Test
	void registersTheGateWebFilterBeforeSpringSecuritysWebFilterChainProxy() {
		this.reactive.run((context) -> assertThat(context.getBean(ReactiveRateLimitGateFilter.class).getOrder())
			.isEqualTo(RateLimitFilterOrder.GATE)
			// WebFluxSecurityConfiguration.WEB_FILTER_CHAIN_FILTER_ORDER
			// (package-private) is -100
			.isLessThan(-100)
			.isLessThan(context.getBean(ReactiveRateLimitFilter.class).getOrder()));
	}

	@Test
	void theWebFluxGateRefusesADeniedAddressWithoutSpringSecurityOnTheClasspath() {
		this.reactive.withClassLoader(new FilteredClassLoader("org.springframework.security"))
			.withPropertyValues("ratelimit.access.deny=203.0.113.0/24")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				ReactiveRateLimitGateFilter gate = context.getBean(ReactiveRateLimitGateFilter.class);
				AtomicBoolean passed = new AtomicBoolean();
				WebFilterChain chain = (exchange) -> {
					passed.set(true);
					return Mono.empty();
				};
				MockServerWebExchange denied = MockServerWebExchange.from(
						MockServerHttpRequest.get("/login").remoteAddress(new InetSocketAddress("203.0.113.7", 40000)));
				gate.filter(denied, chain).block(Duration.ofSeconds(5));
				assertThat(passed).isFalse();
				assertThat(denied.getResponse().getStatusCode().value()).isEqualTo(403);
				assertThat(denied.getResponse().getBodyAsString().block(Duration.ofSeconds(5)))
					.contains("access_denied");
				MockServerWebExchange other = MockServerWebExchange.from(MockServerHttpRequest.get("/login")
					.remoteAddress(new InetSocketAddress("198.51.100.7", 40000)));
				gate.filter(other, chain).block(Duration.ofSeconds(5));
				assertThat(passed).isTrue();
			});
	}

	@Test
	void registersWebFilterInReactiveApplications() {
		this.reactive.run((context) -> {
			assertThat(context).hasSingleBean(ReactiveRateLimitFilter.class);
			assertThat(context).doesNotHaveBean(FilterRegistrationBean.class);
		});
	}

	@Test
	void registersNoFilterOutsideWebApplications() {
		this.plain.run((context) -> {
			assertThat(context).hasSingleBean(RateLimiter.class);
			assertThat(context).doesNotHaveBean(FilterRegistrationBean.class);
			assertThat(context).doesNotHaveBean(ReactiveRateLimitFilter.class);
		});
	}

	@Test
	void backsOffWhenDisabled() {
		this.servlet.withPropertyValues("ratelimit.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(RateLimiter.class)
				.doesNotHaveBean(FilterRegistrationBean.class));
	}

	@Test
	void backsOffWhenUserDefinesRateLimitStore() {
		this.servlet.withUserConfiguration(CustomStoreConfiguration.class).run((context) -> {
			assertThat(context).getBean(RateLimitStore.class).isSameAs(context.getBean("customStore"));
			assertThat(context).doesNotHaveBean(InMemoryRateLimitStore.class);
		});
	}

	@Test
	void asksUserIdentityResolversFirst() {
		this.plain.withUserConfiguration(CustomResolverConfiguration.class)
			.withPropertyValues("ratelimit.tiers.gold.user.default=1/1m", "ratelimit.tiers.anonymous.ip.default=100/1m")
			.run((context) -> {
				RateLimiter limiter = context.getBean(RateLimiter.class);
				TestRequest request = TestRequest.from("203.0.113.1").header("X-Gold-User", "midas");
				Decision first = limiter.decide(request, Classification.of("default", 1));
				assertThat(first.identity().tier()).isEqualTo("gold");
				assertThat(first.identity().user()).isEqualTo("midas");
				assertThat(limiter.decide(request, Classification.of("default", 1)).outcome())
					.isEqualTo(Outcome.REJECTED);
			});
	}

	@Test
	void worksWithoutSpringSecurityOnTheClasspath() {
		this.servlet.withClassLoader(new FilteredClassLoader("org.springframework.security"))
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(RateLimiter.class));
	}

	@Test
	void malformedLimitStopsTheStartNamingThePropertyAndAValidValue() {
		this.servlet
			.withPropertyValues("ratelimit.groups.auth.paths=/v1/auth/**",
					"ratelimit.tiers.anonymous.ip.auth=50 per minute")
			.run((context) -> {
				assertThat(context).hasFailed();
				// Boot's binder meets it first: it knows where the value was set
				FailureAnalysis analysis = new RateLimitBindFailureAnalyzer().analyze(context.getStartupFailure());
				assertThat(analysis).isNotNull();
				assertThat(analysis.getDescription()).contains("ratelimit.tiers.anonymous.ip.auth")
					.contains("50 per minute")
					.contains("is not of the form");
				assertThat(analysis.getAction()).contains("50/1m, 500/1h");
			});
	}

	@Test
	void malformedTrustedProxyStopsTheStart() {
		this.servlet.withPropertyValues("ratelimit.identity.trusted-proxies=10.0.0.0/8,10.0.0.300/33")
			.run((context) -> {
				assertThat(context).hasFailed();
				// reported by the binder, with where the value was set
				FailureAnalysis analysis = new RateLimitBindFailureAnalyzer().analyze(context.getStartupFailure());
				assertThat(analysis).as("%s", context.getStartupFailure()).isNotNull();
				assertThat(analysis.getDescription()).contains("ratelimit.identity.trusted-proxies")
					.contains("10.0.0.300/33");
				assertThat(analysis.getAction()).contains("10.0.0.0/8");
			});
	}

	@Test
	void conflictingHeaderStylesStopTheStart() {
		this.servlet.withPropertyValues("ratelimit.headers.styles=ietf,draft7").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(analyze(context.getStartupFailure()).getDescription()).contains("ratelimit.headers.styles");
		});
	}

	@Test
	void unknownGroupInATierStopsTheStart() {
		this.servlet.withPropertyValues("ratelimit.tiers.premium.user.exprot=10/1m").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(analyze(context.getStartupFailure()).getDescription())
				.contains("ratelimit.tiers.premium.user.exprot");
		});
	}

	@Test
	void apiKeyOfAnUnknownTierStopsTheStart() {
		this.servlet
			.withPropertyValues("ratelimit.tiers.premium.user.default=10/1m", "ratelimit.identity.api-keys[0].key=k1",
					"ratelimit.identity.api-keys[0].user=alice", "ratelimit.identity.api-keys[0].tier=platinum")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(analyze(context.getStartupFailure()).getDescription())
					.contains("ratelimit.identity.api-keys[0].tier");
			});
	}

	@Test
	void groupCostBeyondALimitsCapacityStopsTheStart() {
		this.servlet
			.withPropertyValues("ratelimit.groups.export.paths=/export/**", "ratelimit.groups.export.cost=10",
					"ratelimit.tiers.anonymous.ip.default=5/1m")
			.run((context) -> {
				assertThat(context).hasFailed();
				FailureAnalysis analysis = analyze(context.getStartupFailure());
				assertThat(analysis.getDescription()).contains("ratelimit.groups.export.cost")
					.contains("anonymous-ip-default");
			});
	}

	@Test
	void redisStorageWithoutRedisStopsTheStart() {
		this.servlet.withPropertyValues("ratelimit.storage.type=redis").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(analyze(context.getStartupFailure()).getDescription()).contains("ratelimit.storage.type");
		});
	}

	private static FailureAnalysis analyze(Throwable failure) {
		FailureAnalysis analysis = new RateLimitConfigurationFailureAnalyzer().analyze(failure);
		assertThat(analysis).as("analysis of %s", failure).isNotNull();
		return analysis;
	}

	@Configuration(proxyBeanMethods = false)
	static class CustomGateConfiguration {

		@Bean
		FilterRegistrationBean<RateLimitGateFilter> customGate(AddressGate gate, EndpointClassifier classifier,
				RateLimitHeaders headers) {
			FilterRegistrationBean<RateLimitGateFilter> registration = new FilterRegistrationBean<>(
					new RateLimitGateFilter(gate, classifier, List.of(), headers, new ProblemDetailsBodyWriter(),
							DecisionListener.NONE));
			registration.setEnabled(false);
			return registration;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class CustomStoreConfiguration {

		@Bean
		RateLimitStore customStore() {
			return new RateLimitStore() {
				@Override
				public StoreDecision decide(List<LimitCheck> checks) {
					throw new UnsupportedOperationException();
				}
			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class CustomResolverConfiguration {

		@Bean
		IdentityResolver goldResolver() {
			return (request) -> {
				String user = request.header("X-Gold-User");
				return (user != null) ? new ResolvedIdentity(user, null, "gold", null) : null;
			};
		}

	}

}
