// Reads the embedded golden file: one row per line, "name v1 v2 ...", '#' starts a comment line.
#pragma once

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "golden_text.hpp"

inline std::map<std::string, std::vector<double>> goldenSeed1() {
  std::map<std::string, std::vector<double>> rows;
  std::istringstream text(kGoldenSeed1Text);
  std::string line;
  while (std::getline(text, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string name;
    fields >> name;
    std::vector<double>& row = rows[name];
    std::string token;
    while (fields >> token) row.push_back(std::stod(token));
  }
  return rows;
}
