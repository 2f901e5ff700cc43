// search.engine (issue 22): every method plans inside what the engine can
// launch (core/search/space/engine_space.hpp), the result prices the engine
// against the unconstrained plan, "any" is the space as before, and the
// launch targets agree with the search about what each engine can run.
#include <gtest/gtest.h>

#include "api/api.hpp"
#include "api/engine_price.hpp"
#include "api/planner.hpp"
#include "api/planning_session.hpp"
#include "model/input_error.hpp"
#include "model/problem_json.hpp"
#include "example_files.hpp"
#include "random_node_pool.hpp"
#include "search/space/engine_space.hpp"
#include "search/space/hybrid_layouts.hpp"

namespace geotrain {
namespace {

using json = nlohmann::json;

constexpr Engine kNamedEngines[] = {Engine::megatron_core, Engine::deepspeed, Engine::torch, Engine::flashflex};
constexpr Method kAllMethods[] = {Method::memetic, Method::exact,          Method::brute_force,
                                  Method::metis,   Method::metis_improved, Method::uniform};

GroupPlan plan_of(const SolveResult& r) {
  return r.layout.empty() ? to_group_plan(r.plan) : to_group_plan(r.plan, r.layout);
}

SolveResult solve(Problem problem, Engine engine, Method method, double time_limit_s = 20) {
  problem.search.engine = engine;
  SolveOptions options;
  options.method = method;
  options.time_limit_s = time_limit_s;
  const PreparedProblem prepared = prepare_problem(problem, options);
  return run_method(prepared, options);
}

// Two 4-GPU nodes (site A) and a lone GPU (site B): H = 1024 (8 heads of 128),
// L = 8, u = 2 (shards of 1 or 2), B = 8 (M = 4), fp16.
Problem two_nodes_and_one() {
  Problem p = testing::random_node_pool(7);
  p.gpus.clear();
  for (int i = 0; i < 9; ++i) {
    Gpu g;
    g.id = "g" + std::to_string(i);
    g.node = i < 4 ? "n0" : i < 8 ? "n1" : "";
    g.site = i < 8 ? "A" : "B";
    g.peak_tflops = i < 4 ? 100 : 60;
    g.memory_gib = 40, g.idle_w = 20, g.active_w = 200;
    p.gpus.push_back(g);
  }
  p.model.hidden_size = 1024, p.model.num_layers = 8, p.model.seq_length = 512, p.model.vocab_size = 8000;
  p.model.micro_batch_size = 2, p.model.global_batch_size = 8;
  p.network.intra_node = LinkSpec{1200, 0.005, 1};
  p.network.intra_site = LinkSpec{50, 0.05, 1};
  p.network.inter_site = LinkSpec{5, 20, 1};
  p.search.parallelism = Parallelism::hybrid;
  return p;
}

TEST(EngineSetting, ParsedNamedAndWrittenBack) {
  const std::string base = R"({"model": {"hidden_size": 1024, "num_layers": 4, "seq_length": 512, "vocab_size": 1000,
      "micro_batch_size": 1, "global_batch_size": 4}, "gpus": [{"id": "a", "type": "A100-SXM-80GB"}],
      "network": {"default": {"bandwidth_gbps": 10, "latency_ms": 1}}, "search": {"engine": ENGINE}})";
  auto with = [&](const std::string& value) {
    std::string text = base;
    return text.replace(text.find("ENGINE"), 6, value);
  };
  for (Engine e : kEngines) {
    const Problem p = parse_problem_text(with(std::string("\"") + engine_name(e) + "\"")).problem;
    EXPECT_EQ(p.search.engine, e);
    const json written = problem_to_json(p);
    EXPECT_EQ(written["search"].contains("engine"), e != Engine::any) << "any is the default: not written";
    EXPECT_EQ(parse_problem_text(written.dump()).problem.search.engine, e);
  }
  try {
    parse_problem_text(with("\"megatron\""));
    FAIL() << "an unknown engine must be refused";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("search.engine: must be one of \"any\", \"megatron-core\""), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(parse_solve_options(json{{"engine", "jax"}}), InputError);
  EXPECT_EQ(*parse_solve_options(json{{"engine", "torch"}}).engine, Engine::torch);
}

TEST(EngineSpace, MegatronCoreLayoutsHaveOneShapeAndOnlyItsGroups) {
  // n0 and n1 take (1,1) (2,1) (2,2) (4,2) (4,4) (d = s / t divides u = 2);
  // g8 only (1,1). Megatron-Core's choices: the pipeline and one per shape,
  // and a choice's model holds only groups of that shape (g8 drops out).
  Problem p = two_nodes_and_one();
  p.search.engine = Engine::megatron_core;
  const CostModel pipeline(p);
  const LayoutSpace space(p, pipeline);
  const auto choices = space.every_choice(4096, "exact");
  EXPECT_EQ(choices.size(), 5u);
  for (const ShapeChoice& c : choices) {
    const auto model = space.model(c);
    const GroupLayout& layout = model->layout();
    for (const DeviceGroup& g : layout) {
      EXPECT_EQ(g.size(), layout.front().size());
      EXPECT_EQ(g.tensor_parallel, layout.front().tensor_parallel);
    }
    if (space.is_pipeline(c)) continue;
    for (const DeviceGroup& g : layout) EXPECT_NE(g.gpus.front(), 8) << "g8 cannot take the choice's shape";
  }
  // A choice that mixes shapes is not Megatron-Core's; the same choice is "any"'s.
  ShapeChoice mixed = space.pipeline_choice();
  mixed[0] = 4, mixed[1] = 1;  // n0 as one 4-way group, n1 as two 2-GPU data-parallel groups
  EXPECT_TRUE(space.engine().allows_choice(space.nodes(), mixed) == false);
  p.search.engine = Engine::any;
  const LayoutSpace free(p, pipeline);
  EXPECT_TRUE(free.engine().allows_choice(free.nodes(), mixed));
  EXPECT_EQ(free.every_choice(4096, "exact").size(), 5u * 5u);
}

TEST(EngineSpace, DeepSpeedAndTorchHaveNoTensorParallelismAndFlashFlexOneShardCount) {
  Problem p = two_nodes_and_one();
  const CostModel pipeline(p);
  for (Engine e : {Engine::deepspeed, Engine::torch, Engine::flashflex}) {
    p.search.engine = e;
    const LayoutSpace space(p, pipeline);
    for (const ShapeChoice& c : space.every_choice(4096, "exact")) {
      const GroupLayout layout = space.model(c)->layout();
      for (const DeviceGroup& g : layout) {
        if (e != Engine::flashflex) EXPECT_EQ(g.tensor_parallel, 1) << engine_name(e);
        EXPECT_EQ(g.data_parallel(), layout.front().data_parallel()) << engine_name(e);
      }
    }
  }
}

TEST(EngineSpace, TorchAllowsNoMoreStagesThanMicroBatches) {
  // Nine GPUs, L = 8, M = 4: Schedule1F1B refuses fewer micro-batches than
  // stages, so torch plans have at most 4 stages; the other engines up to 8.
  Problem p = two_nodes_and_one();
  p.search.parallelism = Parallelism::pipeline;
  p.search.engine = Engine::torch;
  CostModel model(p);
  limit_stage_counts(model, p);
  EXPECT_EQ(model.most_stages(), 4);
  EXPECT_TRUE(engine_restricts(p));
  p.search.engine = Engine::megatron_core;
  EXPECT_FALSE(engine_restricts(p)) << "every pipeline plan is a Megatron-Core plan";
  // --stage-count 6 with torch and M = 4: refused with the reason.
  p.search.engine = Engine::torch;
  SolveOptions six;
  six.stage_count = 6;
  try {
    prepare_problem(p, six);
    FAIL();
  } catch (const PlanningError& e) {
    EXPECT_NE(std::string(e.what()).find("4 micro-batches allow at most 4 stages"), std::string::npos) << e.what();
  }
}

TEST(EngineSpace, EveryMethodPlansInsideEveryEngineOnRandomPools) {
  // The check of a finished plan is the launch targets' own rule: a plan the
  // search returns for an engine is one its bundle can run.
  int checked = 0;
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    Problem p = testing::random_node_pool(seed, 6, 4);
    p.search.time_limit_s = 5;
    for (Engine e : kNamedEngines) {
      for (Method m : kAllMethods) {
        SolveResult r;
        try {
          r = solve(p, e, m, 5);
        } catch (const PlanningError&) {
          continue;  // nothing fits, or a method refuses the pool
        }
        Problem at_u = p;
        at_u.search.engine = e;
        EXPECT_TRUE(engine_plan_faults(e, at_u, plan_of(r)).empty())
            << "seed " << seed << " " << engine_name(e) << " " << method_name(m) << ": "
            << engine_plan_faults(e, at_u, plan_of(r)).front();
        ASSERT_TRUE(r.unconstrained) << "the engine's price is always reported";
        // The unconstrained plan is never worse: the engine's space is inside it.
        EXPECT_FALSE(better_result(r.cost, r.unconstrained->cost)) << seed << engine_name(e) << method_name(m);
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 100);
}

TEST(EngineSpace, ExactIsOptimalInsideTheEngineAndPricesIt) {
  // Megatron-Core on the two nodes: exact over its five layouts equals brute
  // force over them, and the unconstrained optimum is at most as costly.
  const Problem p = two_nodes_and_one();
  const SolveResult exact = solve(p, Engine::megatron_core, Method::exact);
  const SolveResult brute = solve(p, Engine::megatron_core, Method::brute_force);
  ASSERT_TRUE(exact.optimal.value_or(false));
  EXPECT_NEAR(exact.cost.objective, brute.cost.objective, 1e-12);
  EXPECT_LE(exact.unconstrained->cost.objective, exact.cost.objective);
  EXPECT_NEAR(exact.unconstrained->cost.objective, solve(p, Engine::any, Method::exact).cost.objective, 1e-12);
}

TEST(EngineSpace, AnyIsTheSpaceAsBefore) {
  // A file without search.engine and one with "any" give the same plan and
  // figures, and neither prints the engine fields.
  Problem p = two_nodes_and_one();
  const json without = problem_to_json(p);
  json with = without;
  with["search"]["engine"] = "any";
  for (const char* method : {"memetic", "exact", "metis", "uniform"}) {
    const SolveOptions options = parse_solve_options(json{{"method", method}, {"time_limit_s", 10}});
    json a = solve_request(without.dump(), options), b = solve_request(with.dump(), options);
    for (json* out : {&a, &b})
      for (const char* clock : {"elapsed_ms", "lower_bound_ms", "bound_history"}) out->erase(clock);
    EXPECT_EQ(a, b) << method;
    EXPECT_FALSE(a.contains("engine"));
    EXPECT_FALSE(a.contains("unconstrained"));
  }
}

TEST(EngineSpace, TheResultReportsTheEngineAndWhatItCosts) {
  Problem p = two_nodes_and_one();
  p.search.engine = Engine::deepspeed;
  const json out = solve_request(problem_to_json(p).dump(), parse_solve_options(json{{"time_limit_s", 10}}));
  EXPECT_EQ(out["engine"], "deepspeed");
  ASSERT_TRUE(out.contains("unconstrained"));
  EXPECT_TRUE(out["engine_price"]["restricts"].get<bool>());
  // price = engine objective / unconstrained objective - 1, in percent.
  const double expected = 100.0 * (out["objective"].get<double>() / out["unconstrained"]["objective"].get<double>() - 1);
  EXPECT_NEAR(out["engine_price"]["objective_pct"].get<double>(), expected, 1e-9);
  EXPECT_GE(out["engine_price"]["objective_pct"].get<double>(), 0.0);
  for (const auto& stage : out["stages"]) EXPECT_EQ(stage.value("tensor_parallel", 1), 1);
}

TEST(EngineSpace, ComposesWithTheMicroBatchSizeSearch) {
  // search.micro_batch_size "auto" plans every u dividing B = 8; at each u
  // torch allows M = 8 / u stages, and the plan it returns keeps to its own u's M.
  Problem p = two_nodes_and_one();
  p.search.micro_batch_auto = true;
  p.search.engine = Engine::torch;
  p.search.time_limit_s = 10;
  const PreparedProblem prepared = prepare_problem(p, SolveOptions{});
  const SolveResult r = run_method(prepared, SolveOptions{});
  const Problem at_u = with_micro_batch_size(p, r.micro_batch_size);
  EXPECT_TRUE(engine_plan_faults(Engine::torch, at_u, plan_of(r)).empty());
  EXPECT_LE(static_cast<std::int64_t>(r.plan.size()), at_u.model.micro_batches());
  ASSERT_TRUE(r.unconstrained);
  EXPECT_FALSE(better_result(r.cost, r.unconstrained->cost));
}

TEST(EngineSpace, SteppedSessionGivesTheSolveResult) {
  // The page's stepped session runs the engine's search, then the
  // unconstrained one: the same plans and figures as solve_request.
  Problem p = two_nodes_and_one();
  p.search.engine = Engine::megatron_core;
  const std::string text = problem_to_json(p).dump();
  const SolveOptions options = parse_solve_options(json{{"time_limit_s", 20}});
  PlanningSession session(text, options);
  int slices = 0;
  while (!session.step(1.0)) ++slices;
  json stepped = session.result_json(), direct = solve_request(text, options);
  for (json* out : {&stepped, &direct}) {
    for (const char* clock : {"elapsed_ms", "lower_bound_ms"}) out->erase(clock);
    (*out)["unconstrained"].erase("elapsed_ms");
  }
  EXPECT_EQ(stepped, direct);
  EXPECT_GT(slices, 1);
}

TEST(EngineSpace, FlashFlexNeedsAConfigWhoseHeadsDivideTheHiddenSize) {
  // FlashFlex's llama configs have 32, 40, 52 and 64 heads; H = 1000 is
  // divisible by 40 (25-dimensional heads), H = 1001 by none of them.
  Problem p = two_nodes_and_one();
  p.search.engine = Engine::flashflex;
  p.model.hidden_size = 1000;
  EXPECT_TRUE(engine_refusal(p).empty());
  p.model.hidden_size = 1001;
  EXPECT_NE(engine_refusal(p).find("none divides model.hidden_size 1001"), std::string::npos);
  EXPECT_THROW(prepare_problem(p, SolveOptions{}), PlanningError);
  // A tensor degree that does not divide the config's heads is refused: H =
  // 6656 is llama-30b's, with 52 heads, so t = 8 cannot run.
  p.model.hidden_size = 6656;
  const GroupPlan eight{GroupStage{{0, 1, 2, 3, 4, 5, 6, 7}, 8, 8}};
  const GroupPlan four{GroupStage{{0, 1, 2, 3}, 4, 8}};
  EXPECT_FALSE(engine_plan_faults(Engine::flashflex, p, eight).empty());
  EXPECT_TRUE(engine_plan_faults(Engine::flashflex, p, four).empty());
}

TEST(EngineSpace, MegatronCoreBeatsTheHandPlanOnTheSixtyFourA100Pool) {
  // The plan an engineer writes by hand, one 8-way stage per node in file
  // order, takes about 166 s; the Megatron-Core plan (one tensor degree for
  // every stage) must beat it, and cost no less than the unconstrained plan.
  const std::string problem = testing::read_example("llama70b-64xa100.json");
  ASSERT_FALSE(problem.empty());
  const auto hand = evaluate_request(problem, testing::one_stage_per_node_plan(problem).dump());
  SolveOptions options;
  options.engine = Engine::megatron_core;
  const auto solved = solve_request(problem, options);
  EXPECT_LT(solved["iteration_ms"].get<double>(), hand["iteration_ms"].get<double>());
  const int t = solved["stages"][0].value("tensor_parallel", 1);
  for (const auto& stage : solved["stages"]) EXPECT_EQ(stage.value("tensor_parallel", 1), t);
  EXPECT_GE(solved["iteration_ms"].get<double>(), solved["unconstrained"]["iteration_ms"].get<double>() * 0.999);
}

}  // namespace
}  // namespace geotrain
