import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "../platform/api.ts";

export type PublicTier = {
  id: number;
  slug: string;
  title: string;
  monthlyPrice: string;
  yearlyPrice: string;
  minUsers: number;
  maxUsers: number | null;
  features: string[];
};
export type CaseStudy = {
  id: number;
  title: string;
  companyName: string;
  industry: string;
  summary: string;
  quote: string | null;
  quoteAuthor: string | null;
  metricValue: string | null;
  metricLabel: string | null;
};
export type Banner = {
  id: number;
  title: string;
  body: string | null;
  linkUrl: string | null;
  linkLabel: string | null;
};

export const useTiers = () =>
  useQuery({
    queryKey: ["public", "tiers"],
    queryFn: () => apiFetch<PublicTier[]>("/api/public/tiers"),
    staleTime: 60_000,
  });

export const useLanding = () =>
  useQuery({
    queryKey: ["public", "landing"],
    queryFn: () => apiFetch<{ caseStudies: CaseStudy[]; banners: Banner[] }>("/api/public/landing"),
    staleTime: 60_000,
  });
