package io.github.ratelimit.autoconfigure;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.springframework.core.io.Resource;

import io.github.ratelimit.geo.UnknownCountry;

/**
 * Country rules, under {@code ratelimit.geo}: client addresses allowed or refused (403,
 * code geo_blocked) by their country, at the gate before authentication (see
 * docs/geo-and-reputation.md). Off unless a database is set.
 */
public class GeoProperties {

	/**
	 * The country database, in MaxMind's format (.mmdb, such as GeoLite2-Country.mmdb):
	 * "file:/var/lib/GeoIP/GeoLite2-Country.mmdb" or "classpath:geo/countries.mmdb".
	 * Needs com.maxmind.db:maxmind-db on the class path.
	 */
	private @Nullable Resource database;

	/**
	 * The only countries let through (ISO 3166-1 alpha-2 codes, such as DE or FR); every
	 * other country is refused. Set this or deny, not both.
	 */
	private List<String> allow = new ArrayList<>();

	/**
	 * Countries refused (ISO 3166-1 alpha-2 codes, such as CN or RU). Set this or allow,
	 * not both.
	 */
	private List<String> deny = new ArrayList<>();

	/**
	 * What to do with an address the database gives no country (private ranges, new
	 * allocations): allow or deny.
	 */
	private UnknownCountry unknown = UnknownCountry.ALLOW;

	public @Nullable Resource getDatabase() {
		return this.database;
	}

	public void setDatabase(@Nullable Resource database) {
		this.database = database;
	}

	public List<String> getAllow() {
		return this.allow;
	}

	public void setAllow(List<String> allow) {
		this.allow = allow;
	}

	public List<String> getDeny() {
		return this.deny;
	}

	public void setDeny(List<String> deny) {
		this.deny = deny;
	}

	public UnknownCountry getUnknown() {
		return this.unknown;
	}

	public void setUnknown(UnknownCountry unknown) {
		this.unknown = unknown;
	}

}
